// A service that makes a move without saying so (not through moveAnnouncer) leaves every test of
// its answers green while coverage reports the move never made. This runs every trigger fixture,
// as `paysim trigger` does, and asks coverage for the moves their event types name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, MACHINE_MOVES, MACHINES } from "../../src/domain/resources.js";
import { triggerEveryEventType } from "../helpers/registry.js";
import { startTestPaysimApp, type TestPaysim } from "../helpers/paysim.js";

/** Each machine's event types named after a state one of its drawn moves reaches (`payout.failed`: into failed). */
const MOVES_NAMED = MACHINES.flatMap((machine) =>
  EVENT_TYPES.filter((type) => type.startsWith(`${machine}.`))
    .map((type) => type.slice(machine.length + 1))
    .filter((state) => MACHINE_MOVES[machine].some((move) => move.to === state))
    .map((state) => [machine, state] as const),
);

describe("a move a service makes without announcing it", () => {
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await startTestPaysimApp({ payouts: "manual" });
    await triggerEveryEventType({ request: (method, path, { body, idempotencyKey }) => paysim.api(method, path, { body, idempotencyKey }) });
  });
  afterAll(() => paysim.dispose());

  it("names at least one move of each state machine", () => {
    expect(new Set(MOVES_NAMED.map(([machine]) => machine))).toEqual(new Set(MACHINES));
  });

  it.each(MOVES_NAMED)("%s: the trigger fixtures' move into %s is counted by coverage", (machine, state) => {
    const transitions = paysim.coverage().transitions[machine];
    const into = Object.entries(transitions).filter(([move]) => move.endsWith(`->${state}`));
    expect(into.length, `a drawn move of ${machine} into ${state}`).toBeGreaterThan(0);
    expect(
      into.some(([, count]) => count > 0),
      `coverage counts a move of ${machine} into ${state}`,
    ).toBe(true);
  });
});
