// docs/webhooks.md's minimal receiver (test/docs/webhook-receiver.mjs, which the page shows as
// written: test/docs/examples.test.ts checks it), graded by the real `paysim check-receiver`, and
// driven through real payments and payouts with webhooks arriving out of order.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RECEIVER_CASES } from "../../src/domain/receiver-check.js";
import { runCli } from "../helpers/cli.js";
import { defer, useStartedPaysim } from "../helpers/disposables.js";

const RECEIVER = fileURLToPath(new URL("./webhook-receiver.mjs", import.meta.url));
const SECRET = "whsec_docs_receiver_example";

interface RunningReceiver {
  url: string;
  /** Stops the receiver and answers everything it printed. */
  stop(): Promise<string>;
}

/** Runs the receiver on a free port; answers once it prints the URL it listens on. */
async function startReceiver(): Promise<RunningReceiver> {
  const child: ChildProcessByStdio<null, Readable, null> = spawn(process.execPath, [RECEIVER], {
    env: { ...process.env, PORT: "0", WEBHOOK_SECRET: SECRET },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  const running = () => child.exitCode === null && child.signalCode === null;
  defer(async () => {
    if (running()) {
      child.kill();
      await exited;
    }
  });
  let printed = "";
  const closed = new Promise<void>((done) => child.stdout.on("end", done));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk));
  const stop = async () => {
    if (running()) child.kill();
    await Promise.all([exited, closed]);
    return printed;
  };
  for (;;) {
    const url = /listening on (http:\S+)/.exec(printed)?.[1];
    if (url) return { url, stop };
    if (!running()) throw new Error(`the receiver exited without listening: ${printed}`);
    await Promise.race([once(child.stdout, "data"), exited]);
  }
}

const post = async (url: string, key: string, path: string, body: unknown, idempotencyKey?: string) => {
  const answer = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
  expect(answer.status, path).toBeLessThan(300);
  return (await answer.json()) as { id: string };
};

describe("the receiver docs/webhooks.md shows", () => {
  it("passes every case of paysim check-receiver (duplicate with the warning every receiver gets)", async () => {
    const { url } = await startReceiver();
    const run = await runCli(["check-receiver", url, "--secret", SECRET, "--json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as { cases: { case: string; verdict: string }[] };
    expect(document.cases.map((c) => [c.case, c.verdict])).toEqual(RECEIVER_CASES.map((name) => [name, name === "duplicate" ? "warn" : "pass"]));
  });

  it("acts on every capture and every succeeded payout, with webhooks reordered and equal timestamps", async () => {
    const receiver = await startReceiver();
    const paysim = await useStartedPaysim({ forwardTo: receiver.url, webhookSecret: SECRET, chaos: { reorder: 0.5, seed: 47 } });
    const intents: string[] = [];
    const payouts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const intent = await post(paysim.url, paysim.secretKey, "/v1/payment_intents", { amount: 1000 + i }, `pi-${i}`);
      await post(paysim.url, paysim.secretKey, `/v1/payment_intents/${intent.id}/authorize`, {});
      intents.push(intent.id);
      const payout = await post(
        paysim.url,
        paysim.secretKey,
        "/v1/payouts",
        { amount: 500 + i, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
        `po-${i}`,
      );
      payouts.push(payout.id);
    }
    // The payout runs fall due (processing at +2 s, succeeded at +5 s); then every first attempt
    // that chaos held back reaches the end of its hold (10 s at most).
    await paysim.clock.advance("10s");
    await paysim.clock.advance("11s");
    const events = await paysim.events.list();
    const delivered = await Promise.all(
      events.map((event) => paysim.webhooks.waitFor({ type: event.type, objectId: (event.data as { id: string }).id, url: receiver.url })),
    );
    const printed = await receiver.stop();

    const actedLines = printed.split("\n").filter((line) => line.startsWith("acted on "));
    const acted = new Set(actedLines);
    const missed = [
      ...intents.filter((id) => !acted.has(`acted on payment_intent.captured ${id}`)).map((id) => `payment_intent.captured ${id}`),
      ...payouts.filter((id) => !acted.has(`acted on payout.succeeded ${id}`)).map((id) => `payout.succeeded ${id}`),
    ];
    // The run went through what this is about: chaos held first attempts back, and automatic
    // captures carried the same updated_at as their authorization.
    const reordered = delivered.filter(({ delivery }) => delivery.attempts.some((attempt) => attempt.chaos === "reordered")).length;
    const updatedAt = (type: string, id: string) =>
      (events.find((event) => event.type === type && (event.data as { id: string }).id === id)!.data as { updated_at: string }).updated_at;
    const sameTime = intents.filter((id) => updatedAt("payment_intent.authorized", id) === updatedAt("payment_intent.captured", id)).length;
    const payoutsSameTime = payouts.filter((id) => updatedAt("payout.processing", id) === updatedAt("payout.succeeded", id)).length;
    const count = (prefix: string) => [...acted].filter((line) => line.startsWith(`acted on ${prefix} `)).length;
    console.log(
      `receiver run: ${intents.length} automatic captures, ${payouts.length} payouts, ${events.length} events delivered, ${reordered} reordered by chaos, ` +
        `${sameTime} captures with the authorization's updated_at, ${payoutsSameTime} payouts succeeded with processing's; acted on payment_intent.captured ${count("payment_intent.captured")}/${intents.length}, ` +
        `payout.succeeded ${count("payout.succeeded")}/${payouts.length}`,
    );
    expect(reordered).toBeGreaterThan(0);
    expect(sameTime).toBeGreaterThan(0);
    expect(missed).toEqual([]);
    // Nor did a late event undo a later state: what it acted on for each object follows the machine.
    const actedPerObject = new Map<string, string[]>();
    for (const line of actedLines) {
      const [, , type, id] = line.split(" ") as [string, string, string, string];
      actedPerObject.set(id, [...(actedPerObject.get(id) ?? []), type]);
    }
    const machine = { payment_intent: ["created", "authorized", "captured"], payout: ["created", "processing", "succeeded"] };
    for (const [id, types] of actedPerObject) {
      const [kind] = types[0]!.split(".") as [keyof typeof machine];
      const steps = types.map((type) => machine[kind].indexOf(type.split(".")[1]!));
      expect({ id, steps }).toEqual({ id, steps: [...steps].sort((a, b) => a - b) });
      expect(new Set(steps).size, `${id}: ${types.join(", ")}`).toBe(steps.length);
    }
  }, 60_000);
});
