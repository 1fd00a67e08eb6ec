import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useCli, usePaysim, usePaysimCli, useTempPath } from "../helpers/disposables.js";
import { callApi, freshKey } from "../helpers/paysim.js";
import { buildRequest } from "../helpers/raw-socket.js";
import { exchange, until } from "../helpers/unanswered.js";

const KEY = "sk_test_cli_faults_0001";
const ID = /flt_[0-9A-Za-z]{24}/;

const creation = (key: string, idempotencyKey: string) =>
  buildRequest(
    "POST",
    "/v1/payment_intents",
    { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
    Buffer.from(JSON.stringify({ amount: 1000 })),
  );

describe("paysim faults", () => {
  it("adds, lists, removes and clears the key's fault rules", async () => {
    const paysim = await usePaysim({ secretKey: KEY });
    const cli = (...args: string[]) => runCli(["faults", ...args, "--url", paysim.url, "--key", KEY]);

    const added = await cli("add", "lost_response", "--method", "post", "--path", "/v1/payment_intents");
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: "" });
    const [id] = added.stdout.match(ID)!;
    expect(added.stdout).toBe(
      `id           ${id}\nfault        lost_response\nmatch        POST /v1/payment_intents\ntimes        1\nprobability  1\nlatency      —\n`,
    );
    const second = JSON.parse((await cli("add", "latency", "--latency", "1500", "--times", "3", "--probability", "0.5", "--seed", "7", "--json")).stdout);
    expect(second).toMatchObject({ fault: "latency", match: { method: null, path: null }, times: 3, probability: 0.5, latency_ms: 1500 });

    const listed = await cli("list");
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")).toEqual([
      "ID                            FAULT          METHOD  PATH                 LEFT  PROBABILITY  LATENCY  RETRY-AFTER",
      `${id}  lost_response  POST    /v1/payment_intents  1/1   1            —        —`,
      `${second.id}  latency        *       *                    3/3   0.5          1500ms   —`,
      "",
    ]);

    // --retry-after sets a rate_limited rule's Retry-After; the server refuses it on another fault.
    const limited = await cli("add", "rate_limited", "--retry-after", "0");
    expect(limited.code).toBe(0);
    const [limitedId] = limited.stdout.match(ID)!;
    expect(limited.stdout).toMatch(/^latency {6}—\nretry after {2}0s\n$/m);
    expect((await cli("list")).stdout).toMatch(new RegExp(`^${limitedId} +rate_limited .* — +0s$`, "m"));
    const refused = await cli("add", "server_error", "--retry-after", "2");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("retry_after_seconds applies only to the rate_limited fault");
    expect((await cli("remove", limitedId!)).code).toBe(0);

    expect((await cli("remove", second.id)).stdout).toBe(`Removed ${second.id}.\n`);
    expect((await cli("clear")).stdout).toBe("Removed 1 fault rule.\n");
    expect((await cli("list")).stdout).toBe("No fault rules.\n");
  });

  it.each([
    [["add", "explode"], "param: fault"],
    [["add", "latency"], "param: latency_ms"],
    [["add", "server_error", "--times", "many"], "param: times"],
    [["add", "server_error", "--path", "/v1/sandbox/reset"], "param: match.path"],
    [["remove", "flt_000000000000000000000000"], "not_found"],
  ])("exits 1 with the server's refusal for %j, storing nothing", async (args, message) => {
    const paysim = await usePaysim({ secretKey: KEY });
    const { code, stdout, stderr } = await runCli(["faults", ...args, "--url", paysim.url, "--key", KEY]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr).toContain(message);
    expect((await callApi(paysim.url, KEY, "GET", "/v1/sandbox/faults")).body.data).toEqual([]);
  });
});

describe("paysim start with fault rules", () => {
  it("keeps a lost_response's payment when killed the moment the client sees the connection close", async () => {
    const db = useTempPath();
    const first = await usePaysimCli(["--db", db, "--secret-key", KEY]);
    expect((await runCli(["faults", "add", "lost_response", "--path", "/v1/payment_intents", "--url", first.url, "--key", KEY])).code).toBe(0);
    const key = freshKey();
    const { received } = await exchange(Number(new URL(first.url).port), creation(KEY, key));
    expect(received.toString("latin1")).toBe("");
    await first.cli.stop("SIGKILL");

    const second = await usePaysimCli(["--db", db, "--secret-key", KEY]);
    const intents = (await callApi(second.url, KEY, "GET", "/v1/payment_intents")).body.data;
    expect(intents).toHaveLength(1);
    const retry = await callApi(second.url, KEY, "POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.id).toBe(intents[0].id);
  });

  it("marks faulted requests in its log lines, and stops on SIGTERM though a timeout holds a request", async () => {
    const started = await usePaysimCli(["--db", ":memory:", "--secret-key", KEY]);
    const rule = (await callApi(started.url, KEY, "POST", "/v1/sandbox/faults", { body: { fault: "rate_limited", match: { path: "/v1/events" } } })).body;
    expect((await callApi(started.url, KEY, "GET", "/v1/events")).status).toBe(429);
    await started.cli.waitFor(new RegExp(`^GET /v1/events 429 \\d+\\.\\dms fault rate_limited ${rule.id}$`, "m"));

    await callApi(started.url, KEY, "POST", "/v1/sandbox/faults", { body: { fault: "timeout", latency_ms: 60_000 } });
    const held = exchange(Number(new URL(started.url).port), creation(KEY, freshKey()));
    await until(async () => (await callApi(started.url, KEY, "GET", "/v1/sandbox/faults")).body.data.length === 0, "the request reached paysim");
    const stopped = await started.cli.stop("SIGTERM");
    expect(stopped.code).toBe(0);
    expect((await held).received.toString("latin1")).toBe("");
  });

  it("names the fault in its --json request lines", async () => {
    const cli = useCli(["start", "--port", "0", "--db", ":memory:", "--secret-key", KEY, "--json"]);
    const url = JSON.parse((await cli.waitFor(/^\{"type":"started".*$/m))[0]).url as string;
    const rule = (await callApi(url, KEY, "POST", "/v1/sandbox/faults", { body: { fault: "server_error" } })).body;
    expect((await callApi(url, KEY, "GET", "/v1/payouts")).status).toBe(500);
    const [line] = await cli.waitFor(/^\{"type":"request".*"path":"\/v1\/payouts".*$/m);
    expect(JSON.parse(line)).toMatchObject({ status: 500, fault: { rule_id: rule.id, fault: "server_error", unanswered: false } });
  });
});
