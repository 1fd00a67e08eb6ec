// docs/webhooks.md's minimal receiver (test/docs/webhook-receiver.mjs, which the page shows as
// written: test/docs/examples.test.ts checks it), graded by the real `paysim check-receiver`.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RECEIVER_CASES } from "../../src/domain/receiver-check.js";
import { runCli } from "../helpers/cli.js";
import { defer } from "../helpers/disposables.js";

const RECEIVER = fileURLToPath(new URL("./webhook-receiver.mjs", import.meta.url));
const SECRET = "whsec_docs_receiver_example";

/** Runs the receiver on a free port and answers the URL it prints once it listens. */
async function startReceiver(): Promise<string> {
  const child = spawn(process.execPath, [RECEIVER], { env: { ...process.env, PORT: "0", WEBHOOK_SECRET: SECRET }, stdio: ["ignore", "pipe", "inherit"] });
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await once(child, "exit");
    }
  });
  let printed = "";
  for await (const chunk of child.stdout.setEncoding("utf8")) {
    printed += chunk as string;
    const url = /listening on (http:\S+)/.exec(printed)?.[1];
    if (url) return url;
  }
  throw new Error(`the receiver exited without listening: ${printed}`);
}

describe("the receiver docs/webhooks.md shows", () => {
  it("passes every case of paysim check-receiver (duplicate with the warning every receiver gets)", async () => {
    const url = await startReceiver();
    const run = await runCli(["check-receiver", url, "--secret", SECRET, "--json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as { cases: { case: string; verdict: string }[] };
    expect(document.cases.map((c) => [c.case, c.verdict])).toEqual(RECEIVER_CASES.map((name) => [name, name === "duplicate" ? "warn" : "pass"]));
  });
});
