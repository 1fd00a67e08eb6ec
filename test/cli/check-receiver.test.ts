import { spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RECEIVER_CASES, type ReceiverCase } from "../../src/domain/receiver-check.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { VERSION } from "../../src/version.js";
import { cliEnv, PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { defer, useReceiver } from "../helpers/disposables.js";
import { closedPortUrl, type Behaviour, type ChooseBehaviour } from "../helpers/receiver.js";

const SECRET = "whsec_check_receiver_test_secret";
const SIGNATURE_CASES: ReceiverCase[] = ["tampered-body", "wrong-secret", "stale-timestamp", "missing-signature", "malformed-signature"];

/** One thing a receiver gets wrong; "none" is a receiver that does everything right. */
type Fault =
  | "none"
  | "skips-the-hmac"
  | "accepts-an-unreadable-signature"
  | "accepts-a-missing-signature"
  | "accepts-a-stale-timestamp"
  | "answers-500-to-a-duplicate"
  | "answers-a-duplicate-after-the-timeout"
  | "refuses-an-older-event"
  | "answers-500-to-a-bad-signature";

/**
 * A receiver as a merchant would write it (verify, deduplicate on the event id, never let an older
 * event undo a newer one), with at most one fault.
 */
function merchantReceiver(fault: Fault = "none"): ChooseBehaviour {
  const seen = new Set<string>();
  const captured = new Set<string>();
  const verified = (body: Buffer, header: string | undefined): boolean => {
    switch (fault) {
      case "skips-the-hmac": {
        // Checks the header's form and its age, never the HMAC itself.
        const t = /^t=(\d+),v1=[0-9a-f]{64}$/.exec(header ?? "")?.[1];
        return t !== undefined && Math.abs(Date.now() / 1000 - Number(t)) <= 300;
      }
      case "accepts-an-unreadable-signature": {
        if (header === undefined) return false;
        try {
          const parts = Object.fromEntries(header.split(",").map((part) => part.split("=")));
          const expected = createHmac("sha256", SECRET).update(`${parts.t}.`).update(body).digest();
          // timingSafeEqual throws on a signature of another length, and the catch lets it through.
          if (!timingSafeEqual(expected, Buffer.from(parts.v1 ?? "", "hex"))) return false;
          return Math.abs(Date.now() / 1000 - Number(parts.t)) <= 300;
        } catch {
          return true;
        }
      }
      case "accepts-a-missing-signature":
        return header === undefined || verifySignature(body, header, SECRET);
      case "accepts-a-stale-timestamp":
        return verifySignature(body, header, SECRET, { toleranceSeconds: Number.MAX_SAFE_INTEGER });
      default:
        return verifySignature(body, header, SECRET);
    }
  };
  return ({ body, headers }): Behaviour => {
    if (!verified(body, headers["service-signature"] as string | undefined)) return fault === "answers-500-to-a-bad-signature" ? 500 : 400;
    const event = JSON.parse(body.toString("utf8")) as { id: string; type: string; data: { id: string } };
    if (seen.has(event.id)) {
      if (fault === "answers-500-to-a-duplicate") return 500;
      if (fault === "answers-a-duplicate-after-the-timeout") return { status: 200, afterMs: 60_000 };
      return 200;
    }
    seen.add(event.id);
    if (event.type === "payment_intent.captured") captured.add(event.data.id);
    if (event.type === "payment_intent.authorized" && captured.has(event.data.id) && fault === "refuses-an-older-event") return 409;
    return 200;
  };
}

interface JsonCase {
  case: ReceiverCase;
  verdict: string;
  got: string;
  reason: string | null;
  advice: string | null;
  answers: { status_code: number | null; error: string | null; duration_ms: number }[];
}

async function checkJson(url: string, ...args: string[]) {
  const run = await runCli(["check-receiver", url, "--secret", SECRET, "--json", ...args]);
  return {
    ...run,
    document: JSON.parse(run.stdout) as { passed: boolean; summary: Record<string, number>; cases: JsonCase[]; timeout_ms: number; warn_after_ms: number },
  };
}

/** `paysim check-receiver <args>` on a real pseudo-terminal (util-linux `script`): what it printed, escapes and all. */
function inTerminal(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const command = `exec "${process.execPath}" "${PAYSIM_BIN}" check-receiver ${args.join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: cliEnv({ TERM: "xterm-256color", CI: undefined, CONTINUOUS_INTEGRATION: undefined, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  defer(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  return new Promise((resolve) => child.on("close", () => resolve(output)));
}

const failing = (cases: readonly JsonCase[]) => cases.filter((c) => c.verdict === "FAIL").map((c) => c.case);

describe("paysim check-receiver", () => {
  it("passes every case against a receiver that does everything right, with the table and the summary", async () => {
    const receiver = await useReceiver(merchantReceiver());
    const { code, stdout, stderr } = await runCli(["check-receiver", receiver.url, "--secret", SECRET]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^CASE +SENT +EXPECTED +GOT +TIME +VERDICT$/);
    const rows = lines.slice(1, 1 + RECEIVER_CASES.length);
    expect(rows.map((row) => row.split(/\s{2,}/)[0])).toEqual([...RECEIVER_CASES]);
    for (const row of rows.filter((r) => !r.startsWith("duplicate"))) expect(row).toMatch(/ \d+ ms +pass$/);
    // paysim cannot see whether a duplicate was acted on twice: a warning, not a pass.
    expect(rows.find((row) => row.startsWith("duplicate"))).toMatch(/ 2xx +200, 200 +\d+ ms +warn$/);
    expect(rows.find((row) => row.startsWith("wrong-secret"))).toMatch(/ 4xx +400 /);
    expect(lines.at(-1)).toBe(`PASS 7 passed, 1 warned, 0 failed of 8 cases against ${receiver.url} (limit 20000 ms, warning from 5000 ms)`);
    expect(stdout).not.toContain("\u001b["); // no colour outside a terminal (and NO_COLOR is set)
    expect(stdout).not.toContain(SECRET);
    // One request per case, two for duplicate and out-of-order; each a delivery as paysim makes them.
    expect(receiver.requests).toHaveLength(RECEIVER_CASES.length + 2);
    for (const request of receiver.requests) {
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe(`paysim/${VERSION}`);
      expect(request.headers["service-event-id"]).toMatch(/^evt_/);
    }
  });

  // Each receiver gets one thing wrong, and exactly the cases about that thing fail.
  it.each<{ fault: Fault; fails: ReceiverCase[]; args?: string[]; reason: RegExp }>([
    { fault: "skips-the-hmac", fails: ["tampered-body", "wrong-secret"], reason: /^answered 200, expected 4xx$/ },
    { fault: "accepts-an-unreadable-signature", fails: ["malformed-signature"], reason: /^answered 200, expected 4xx$/ },
    { fault: "accepts-a-missing-signature", fails: ["missing-signature"], reason: /^answered 200, expected 4xx$/ },
    { fault: "accepts-a-stale-timestamp", fails: ["stale-timestamp"], reason: /^answered 200, expected 4xx$/ },
    { fault: "answers-500-to-a-duplicate", fails: ["duplicate"], reason: /^answered 500, expected 2xx$/ },
    { fault: "answers-a-duplicate-after-the-timeout", fails: ["duplicate"], args: ["--timeout", "1000"], reason: /^timeout: no response within 1000 ms$/ },
    { fault: "refuses-an-older-event", fails: ["out-of-order"], reason: /^answered 409, expected 2xx$/ },
    {
      fault: "answers-500-to-a-bad-signature",
      fails: SIGNATURE_CASES,
      reason: /^answered 500: a 5xx makes the service retry a delivery that can never verify; answer 4xx$/,
    },
  ])("against a receiver that $fault, fails exactly $fails", async ({ fault, fails, args = [], reason }) => {
    const receiver = await useReceiver(merchantReceiver(fault));
    const { code, document } = await checkJson(receiver.url, ...args);
    expect(code).toBe(1);
    expect(document.passed).toBe(false);
    expect(failing(document.cases)).toEqual(fails);
    for (const failed of document.cases.filter((c) => c.verdict === "FAIL")) {
      expect(failed.reason).toMatch(reason);
      expect(failed.advice).toEqual(expect.any(String));
    }
    expect(document.summary).toMatchObject({ failed: fails.length, total: RECEIVER_CASES.length });
  });

  it("shows what failed and how to fix it under the table, and a FAIL summary", async () => {
    const receiver = await useReceiver(merchantReceiver("accepts-a-stale-timestamp"));
    const { code, stdout } = await runCli(["check-receiver", receiver.url, "--secret", SECRET]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^stale-timestamp .* 4xx +200 +\d+ ms +FAIL$/m);
    expect(stdout).toContain("FAIL stale-timestamp: answered 200, expected 4xx. Fix: answer 4xx when t is more than 5 minutes from now: it may be a replay.");
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^FAIL 6 passed, 1 warned, 1 failed of 8 cases against /);
  });

  // How a slow answer is graded is proven on timers the test moves (test/webhooks/receiver-check.test.ts).
  it("takes --timeout as the limit, and a quarter of it as where warnings start", async () => {
    const receiver = await useReceiver(200);
    const { code, document } = await checkJson(receiver.url, "--only", "valid", "--timeout", "4000");
    expect(code).toBe(0);
    expect(document).toMatchObject({ passed: true, timeout_ms: 4000, warn_after_ms: 1000, summary: { total: 1, failed: 0 } });
    expect(document.cases[0]).toMatchObject({ case: "valid", got: "200" });
  });

  it("runs only the cases --only names, in the order of the table", async () => {
    const receiver = await useReceiver(merchantReceiver());
    const { code, document } = await checkJson(receiver.url, "--only", "out-of-order,duplicate");
    expect(code).toBe(0);
    expect(document.cases.map((c) => [c.case, c.verdict, c.got])).toEqual([
      ["duplicate", "warn", "200, 200"],
      ["out-of-order", "pass", "200, 200"],
    ]);
    const sent = receiver.requests.map((r) => JSON.parse(r.body.toString("utf8")) as { id: string; type: string; data: { id: string } });
    expect(sent.map((event) => event.type)).toEqual([
      "payment_intent.captured",
      "payment_intent.captured",
      "payment_intent.captured",
      "payment_intent.authorized",
    ]);
    // The duplicate is the same event, byte for byte; out-of-order is another intent's captured, then its authorized.
    expect(receiver.requests[1]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    expect(sent[2]!.data.id).toBe(sent[3]!.data.id);
    expect(sent[2]!.data.id).not.toBe(sent[0]!.data.id);
  });

  it("sends each signature case as the table says", async () => {
    const receiver = await useReceiver(merchantReceiver());
    const { code } = await checkJson(receiver.url, "--only", SIGNATURE_CASES.join(","));
    expect(code).toBe(0);
    const [tampered, wrongSecret, stale, missing, malformed] = receiver.requests;
    const header = (request: typeof tampered) => request!.headers["service-signature"] as string | undefined;
    const now = Date.now() / 1000;
    // The tampered body carries a signature that is right for some other body, made with the right secret, now.
    expect(verifySignature(tampered!.body, header(tampered), SECRET)).toBe(false);
    expect(Number(/^t=(\d+),/.exec(header(tampered)!)![1])).toBeGreaterThan(now - 60);
    expect(verifySignature(wrongSecret!.body, header(wrongSecret), SECRET)).toBe(false);
    // The stale one is right apart from its age: 10 minutes.
    expect(verifySignature(stale!.body, header(stale), SECRET)).toBe(false);
    expect(verifySignature(stale!.body, header(stale), SECRET, { toleranceSeconds: 700 })).toBe(true);
    expect(verifySignature(stale!.body, header(stale), SECRET, { toleranceSeconds: 500 })).toBe(false);
    expect(header(missing)).toBeUndefined();
    expect(header(malformed)).toBe("v1=zz");
  });

  it.each([
    { where: "a terminal", env: { NO_COLOR: undefined }, coloured: true },
    { where: "a terminal with NO_COLOR set", env: { NO_COLOR: "1" }, coloured: false },
    { where: "a terminal under CI", env: { NO_COLOR: undefined, CI: "true" }, coloured: false },
  ])("in $where, colours the verdicts: $coloured", async ({ env, coloured }) => {
    const receiver = await useReceiver(merchantReceiver("accepts-a-stale-timestamp"));
    const printed = await inTerminal([receiver.url, "--secret", SECRET, "--only", "valid,stale-timestamp"], env);
    expect(printed).toMatch(/stale-timestamp/);
    expect(printed.includes("\u001b[32mpass\u001b[39m")).toBe(coloured);
    expect(printed.includes("\u001b[31mFAIL\u001b[39m")).toBe(coloured);
    if (!coloured) expect(printed).not.toContain("\u001b[");
  });

  it("--help shows the usage, every case with what it expects, and examples", async () => {
    const { code, stdout } = await runCli(["check-receiver", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: paysim check-receiver [options] <url>");
    expect(stdout).toMatch(/^ {2}malformed-signature Service-Signature: v1=zz → expects 4xx$/m);
    expect(stdout).toContain("$ paysim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_… --only duplicate,out-of-order");
    const { stdout: root } = await runCli(["--help"]);
    expect(root).toMatch(/^ {2}check-receiver \[options\] <url> +Send a battery of webhook deliveries/m);
  });

  it("exits 2, sending no table, when nothing answers at the URL", async () => {
    const url = await closedPortUrl();
    const { code, stdout, stderr } = await runCli(["check-receiver", url, "--secret", SECRET]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe(`paysim: cannot reach a receiver at ${url} (connection refused): is it running, and listening there?`);
  });

  it.each([
    {
      name: "no --secret",
      args: ["URL"],
      message: /^paysim check-receiver: --secret is required: write --secret <whsec_…>\.\nsee paysim check-receiver --help\n$/,
    },
    {
      name: "a secret that is not whsec_…",
      args: ["URL", "--secret", "sk_test_123"],
      message: /--secret must be the endpoint's signing secret, whsec_ followed by its characters/,
    },
    { name: "an empty whsec_", args: ["URL", "--secret", "whsec_"], message: /--secret must be the endpoint's signing secret/ },
    { name: "a URL that is not http(s)", args: ["ftp://127.0.0.1/hooks", "--secret", SECRET], message: /"ftp:\/\/127.0.0.1\/hooks" is not an http\(s\) URL/ },
    { name: "a URL that is not a URL", args: ["not a url", "--secret", SECRET], message: /"not a url" is not a URL/ },
    {
      name: "an unknown --only case",
      args: ["URL", "--secret", SECRET, "--only", "valid,replay"],
      message:
        /--only has an unknown case "replay"; the cases are valid, duplicate, out-of-order, tampered-body, wrong-secret, stale-timestamp, missing-signature, malformed-signature\./,
    },
    {
      name: "a --timeout of 0",
      args: ["URL", "--secret", SECRET, "--timeout", "0"],
      message: /--timeout must be a whole number of milliseconds from 1 to 20000; got "0"/,
    },
    { name: "a --timeout above the limit", args: ["URL", "--secret", SECRET, "--timeout", "20001"], message: /--timeout must be a whole number/ },
    { name: "a --timeout that is not a number", args: ["URL", "--secret", SECRET, "--timeout", "5s"], message: /--timeout must be a whole number/ },
  ])("refuses $name with exit 1 before sending anything", async ({ args, message }) => {
    const receiver = await useReceiver(200);
    const { code, stdout, stderr } = await runCli(["check-receiver", ...args.map((arg) => (arg === "URL" ? receiver.url : arg))]);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
    expect(receiver.requests).toHaveLength(0);
  });
});
