import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { suiteScope, usePaysim, usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";

describe("paysim endpoints", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
  });

  const cli = (...args: string[]) => runCli([...args, "--url", paysim.url, "--key", paysim.secretKey]);
  const listed = async () => (await paysim.api("GET", "/v1/webhook_endpoints")).body.data as any[];

  it("add registers the URL for every event and prints its id and signing secret; list shows it; remove deletes it", async () => {
    const added = await cli("endpoints", "add", "http://127.0.0.1:9/hooks");
    expect(added.code).toBe(0);
    const [endpoint] = await listed();
    expect(endpoint).toMatchObject({ url: "http://127.0.0.1:9/hooks", enabled_events: ["*"], secret: expect.stringMatching(/^whsec_/) });
    expect(added.stdout).toMatch(new RegExp(`^id +${endpoint.id}$`, "m"));
    expect(added.stdout).toMatch(new RegExp(`^secret +${endpoint.secret}$`, "m"));
    expect(added.stdout).toMatch(/^events +\*$/m);

    const list = await cli("endpoints", "list");
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +URL +EVENTS +SECRET +CHAOS +CREATED$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 5))).toEqual([[endpoint.id, endpoint.url, "*", endpoint.secret, "—"]]);

    const removed = await cli("endpoints", "remove", endpoint.id);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed ${endpoint.id}: its pending deliveries stop.\n`);
    expect(await listed()).toEqual([]);
    expect((await cli("endpoints", "list")).stdout).toBe("No webhook endpoints.\n");
  });

  it("add --events takes a comma-separated list; --json prints the server's JSON for add, list and remove", async () => {
    const added = await cli("endpoints", "add", "http://127.0.0.1:9/payouts", "--events", "payout.succeeded,payout.failed", "--json");
    expect(added.code).toBe(0);
    const endpoint = JSON.parse(added.stdout);
    expect(endpoint).toMatchObject({ object: "webhook_endpoint", url: "http://127.0.0.1:9/payouts", enabled_events: ["payout.succeeded", "payout.failed"] });

    const list = JSON.parse((await cli("endpoints", "list", "--json")).stdout);
    expect(list.object).toBe("list");
    expect(list.data.map((e: any) => e.id)).toEqual([endpoint.id]);

    const removed = await cli("endpoints", "remove", endpoint.id, "--json");
    expect(JSON.parse(removed.stdout)).toMatchObject({ id: endpoint.id, object: "webhook_endpoint", deleted: true });
    expect(await listed()).toEqual([]);
  });

  it("add --chaos sets the endpoint's chaos from a --chaos spec; add and list print it the same way", async () => {
    const added = await cli("endpoints", "add", "http://127.0.0.1:9/chaos", "--chaos", "duplicate=0.3,delay=0-2000,seed=7");
    expect(added.code).toBe(0);
    const [endpoint] = await listed();
    expect(endpoint.chaos).toEqual({ duplicate: 0.3, reorder: 0, delay_ms: [0, 2000], seed: 7 });
    expect(added.stdout).toMatch(/^chaos +duplicate=0\.3,reorder=0,delay=0-2000,seed=7$/m);
    const list = await cli("endpoints", "list");
    expect(list.stdout.trimEnd().split("\n")[1]!.split(/\s+/)[4]).toBe("duplicate=0.3,reorder=0,delay=0-2000,seed=7");
    expect((await cli("endpoints", "remove", endpoint.id)).code).toBe(0);
  });

  it("add --chaos refuses a spec it cannot read, in --chaos's words, before calling the server", async () => {
    const { code, stdout, stderr } = await cli("endpoints", "add", "http://127.0.0.1:9/chaos", "--chaos", "duplicate=2");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'paysim endpoints add: --chaos "duplicate=2" is invalid: duplicate must be a number from 0 to 1 (got 2).\nsee paysim endpoints add --help\n',
    );
    expect(await listed()).toEqual([]);
  });

  it.each([
    [["add", "notaurl"], "paysim: invalid_request: url must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks. (param: url)\n"],
    [
      ["add", "ftp://example.com/hooks"],
      "paysim: invalid_request: url must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks. (param: url)\n",
    ],
    [
      ["add", "http://127.0.0.1:9/hooks", "--events", "payment_intent.refunded"],
      /^paysim: invalid_request: enabled_events must be a list of event types .*\(param: enabled_events(\.0)?\)\n$/,
    ],
    [["remove", "we_3kTq0cXbVd9pHnRw2LmYs4Ae"], 'paysim: not_found: No such webhook endpoint: "we_3kTq0cXbVd9pHnRw2LmYs4Ae".\n'],
    [["remove", "nonsense"], 'paysim: not_found: No such webhook endpoint: "nonsense".\n'],
  ])("exits 1 with the server's code and message for %j, changing nothing", async (args, message) => {
    const { code, stdout, stderr } = await cli("endpoints", ...args);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    if (typeof message === "string") expect(stderr).toBe(message);
    else expect(stderr).toMatch(message);
    expect(await listed()).toEqual([]);
  });

  it.each([[["add"]], [["remove"]]])("exits 1 with the usage when %j misses its argument", async (args) => {
    const { code, stderr } = await cli("endpoints", ...args);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^paysim endpoints ${args[0]}: the <\\w+> argument is missing\\.\\nsee paysim endpoints ${args[0]} --help\\n$`));
  });

  it("exits 2 when no server answers", async () => {
    const gone = await startTestPaysim();
    const { url, secretKey } = gone;
    await gone.dispose();
    const { code, stderr } = await runCli(["endpoints", "list", "--url", url, "--key", secretKey]);
    expect(code).toBe(2);
    expect(stderr).toContain(`no paysim server reachable at ${url}`);
  });
});

describe("paysim endpoints beside paysim start --forward-to", () => {
  const thisSuite = suiteScope();
  let folder: string;
  beforeAll(() => {
    folder = useTempDir("paysim-endpoints-", thisSuite);
  });

  const serving = (args: string[]) => usePaysimCli(["--no-ui", ...args], { cwd: folder });
  const listFromFolder = async () => {
    const { code, stdout, stderr } = await runCli(["endpoints", "list", "--json"], { cwd: folder });
    expect(code, stderr).toBe(0);
    return (JSON.parse(stdout).data as any[]).map((e) => e.url);
  };

  it("shows the endpoints of this run's --forward-to only: a later start drops the URLs it does not name, and keeps one added with the command", async () => {
    const first = await serving(["--forward-to", "http://127.0.0.1:9/first"]);
    expect(await listFromFolder()).toEqual(["http://127.0.0.1:9/first"]);
    expect((await runCli(["endpoints", "add", "http://127.0.0.1:9/added"], { cwd: folder })).code).toBe(0);
    expect((await first.cli.stop("SIGTERM")).code).toBe(0);

    const second = await serving(["--forward-to", "http://127.0.0.1:9/second"]);
    expect(await listFromFolder()).toEqual(["http://127.0.0.1:9/added", "http://127.0.0.1:9/second"]);
    expect((await second.cli.stop("SIGTERM")).code).toBe(0);

    await serving([]);
    expect(await listFromFolder()).toEqual(["http://127.0.0.1:9/added"]);
  });
});

describe("paysim endpoints list, with more endpoints than one page holds", () => {
  it("shows every one, oldest first, in the table and in --json", async () => {
    const paysim = await usePaysim();
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) ids.push((await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: `http://127.0.0.1:9/hook-${i}` } })).body.id);
    const server = ["--url", paysim.url, "--key", paysim.secretKey];

    const table = await runCli(["endpoints", "list", ...server]);
    expect(table.code).toBe(0);
    expect(
      table.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(ids);
    const page = JSON.parse((await runCli(["endpoints", "list", "--json", ...server])).stdout);
    expect(page).toMatchObject({ object: "list", has_more: false });
    expect(page.data.map((endpoint: any) => endpoint.id)).toEqual(ids);
  });
});
