import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseChaosSpec, planChaos } from "../../src/domain/chaos.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { runCli, type StartedPaysim } from "../helpers/cli.js";
import { createdEventId, eventWhen } from "../helpers/child-events.js";
import { usePaysimCli, useReceiver, useTempDir } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";

// The real binary (dist/): run `npm run build` before these tests.

const SECRET = "whsec_chaos_crash_0001";
/** The clock runs a thousand times slower than real time: only `clock advance` moves it noticeably. */
const NEARLY_FROZEN = ["--time-scale", "0.001"];

function startChild(db: string, forwardTo: string, chaos: string): Promise<StartedPaysim> {
  return usePaysimCli(["--no-ui", "--db", db, "--forward-to", forwardTo, "--webhook-secret", SECRET, "--chaos", chaos, ...NEARLY_FROZEN]);
}

async function kill(started: StartedPaysim): Promise<void> {
  expect((await started.cli.stop("SIGKILL")).signal).toBe("SIGKILL");
}

describe("--chaos", () => {
  it.each([
    [
      "a probability above 1",
      ["--forward-to", "http://127.0.0.1:9/hooks", "--chaos", "duplicate=2"],
      "--chaos is refused: duplicate must be a number from 0 to 1 (got 2).",
    ],
    [
      "an unknown setting",
      ["--forward-to", "http://127.0.0.1:9/hooks", "--chaos", "shuffle=1"],
      '--chaos is refused: unknown setting "shuffle" (known: duplicate, reorder, delay, seed).',
    ],
    [
      "a delay out of range",
      ["--forward-to", "http://127.0.0.1:9/hooks", "--chaos", "delay=0-90000"],
      "--chaos is refused: delay must be a list [min, max] of integers from 0 to 60000, min not above max (got 90000).",
    ],
    ["no --forward-to", ["--chaos", "duplicate=0.5"], "--chaos is refused: it applies to the forward-to endpoints only, and none is given."],
  ])("refuses %s with exit 1 and a message, writing nothing", async (_name, args, message) => {
    const dir = useTempDir("paysim-cli-chaos-");
    const db = join(dir, "paysim.db");
    const result = await runCli(["start", "--port", "0", "--db", db, ...args], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`paysim: ${message}\n`);
    expect(existsSync(db)).toBe(false);
  });

  it("is refused by exec too, which then runs no command", async () => {
    const dir = useTempDir("paysim-cli-chaos-");
    const marker = join(dir, "ran");
    const result = await runCli(
      [
        "exec",
        "--forward-to",
        "http://127.0.0.1:9/hooks",
        "--chaos",
        "reorder=x",
        "--",
        process.execPath,
        "-e",
        `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`,
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--chaos is refused: reorder must be a number from 0 to 1 (got a string).");
    expect(existsSync(marker)).toBe(false);
  });

  it("marks chaos attempts in events show and in the log lines", async () => {
    const receiver = await useReceiver(200);
    const dir = useTempDir("paysim-cli-chaos-");
    const started = await startChild(join(dir, "paysim.db"), receiver.url, "reorder=1");
    const eventId = await createdEventId(started);
    const advanced = await callApi(started.url, started.key, "POST", "/v1/sandbox/clock/advance", { body: { seconds: 10 } });
    expect(advanced.status).toBe(200);
    await eventWhen(started, eventId, (e) => e.deliveries[0].status === "succeeded");
    await started.cli.waitFor(new RegExp(`delivery ${eventId} → \\S+ 200 \\d+ms \\(chaos: reordered\\), delivered`));
    const shown = await runCli(["events", "show", eventId, "--url", started.url, "--key", started.key]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/ERROR {2}CHAOS {2,}RESPONSE\n {4}\S+ {2,}200 {3}\d+ ms +— +reordered +answered 200\n$/);
  });
});

describe("chaos survives paysim being killed (SIGKILL)", () => {
  it("keeps a held first attempt across a kill: not sent by the restart, sent when its hold ends on the clock", async () => {
    const receiver = await useReceiver(200);
    const dir = useTempDir("paysim-chaos-crash-");
    const db = join(dir, "paysim.db");
    const first = await startChild(db, receiver.url, "reorder=1,seed=5");
    const eventId = await createdEventId(first);
    const held = await eventWhen(first, eventId, () => true);
    expect(held.deliveries[0]).toMatchObject({ status: "pending", attempts: [] });
    await kill(first);

    const second = await startChild(db, receiver.url, "reorder=1,seed=5");
    const afterRestart = await eventWhen(second, eventId, () => true);
    expect(afterRestart.deliveries).toEqual(held.deliveries);
    expect(receiver.requests).toHaveLength(0);

    const advanced = await callApi(second.url, second.key, "POST", "/v1/sandbox/clock/advance", { body: { seconds: 10 } });
    expect(advanced.status).toBe(200);
    const [sent] = await receiver.waitForRequests(1);
    expect(sent!.headers["service-event-id"]).toBe(eventId);
    expect(verifySignature(sent!.body, sent!.headers["service-signature"] as string, SECRET)).toBe(true);
    const delivered = await eventWhen(second, eventId, (e) => e.deliveries[0].status === "succeeded");
    expect(delivered.deliveries[0].attempts).toMatchObject([{ status_code: 200, chaos: "reordered" }]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("releases a held delivery made before the kill when a later event is sent after the restart: the later one arrives first", async () => {
    const receiver = await useReceiver(200);
    const dir = useTempDir("paysim-chaos-crash-");
    const db = join(dir, "paysim.db");
    const spec = "reorder=0.5,seed=12";
    const chaos = (parseChaosSpec(spec) as { chaos: Parameters<typeof planChaos>[0] }).chaos;
    const first = await startChild(db, receiver.url, spec);
    let heldId: string | undefined;
    for (let i = 0; i < 40 && heldId === undefined; i++) {
      const id = await createdEventId(first);
      if (planChaos(chaos, id).held) heldId = id;
    }
    expect(heldId).toBeDefined();
    await kill(first);

    const second = await startChild(db, receiver.url, spec);
    let laterId: string | undefined;
    for (let i = 0; i < 40 && laterId === undefined; i++) {
      const id = await createdEventId(second);
      if (!planChaos(chaos, id).held) laterId = id;
    }
    expect(laterId).toBeDefined();
    const delivered = await eventWhen(second, heldId!, (e) => e.deliveries[0].status === "succeeded");
    expect(delivered.deliveries[0].attempts).toMatchObject([{ status_code: 200, chaos: "reordered" }]);
    const order = receiver.requests.map((r) => r.headers["service-event-id"]);
    expect(order.filter((id) => id === heldId)).toHaveLength(1);
    expect(order.indexOf(heldId)).toBeGreaterThan(order.indexOf(laterId));
  });
});
