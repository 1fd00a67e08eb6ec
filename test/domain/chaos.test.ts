import { describe, expect, it } from "vitest";
import { chaosDraw, chaosSchema, chaosSpecText, firstAttemptMark, parseChaosSpec, planChaos, type Chaos } from "../../src/domain/chaos.js";

const NONE: Chaos = { duplicate: 0, reorder: 0, delay_ms: [0, 0], seed: 0 };
const eventIds = Array.from({ length: 2000 }, (_, i) => `evt_${String(i).padStart(24, "0")}`);

describe("chaos decisions", () => {
  it("are a pure function of seed, event id and kind: the same inputs give the same draw", () => {
    expect(chaosDraw(42, "evt_a", "duplicate")).toBe(chaosDraw(42, "evt_a", "duplicate"));
    expect(planChaos({ ...NONE, duplicate: 0.5, reorder: 0.5, delay_ms: [0, 3000], seed: 7 }, "evt_a")).toEqual(
      planChaos({ ...NONE, duplicate: 0.5, reorder: 0.5, delay_ms: [0, 3000], seed: 7 }, "evt_a"),
    );
  });

  it.each([
    ["another seed", [1, "evt_a", "duplicate"]],
    ["another event", [42, "evt_b", "duplicate"]],
    ["another kind", [42, "evt_a", "reorder"]],
  ] as const)("change with %s", (_, [seed, id, kind]) => {
    expect(chaosDraw(seed, id, kind)).not.toBe(chaosDraw(42, "evt_a", "duplicate"));
  });

  it("draws in [0, 1), spread evenly", () => {
    const draws = eventIds.map((id) => chaosDraw(3, id, "duplicate"));
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    const belowHalf = draws.filter((d) => d < 0.5).length / draws.length;
    expect(belowHalf).toBeGreaterThan(0.45);
    expect(belowHalf).toBeLessThan(0.55);
  });

  it.each([
    ["no settings", null, { delayMs: 0, held: false, duplicateAfterMs: null }],
    ["all zero", NONE, { delayMs: 0, held: false, duplicateAfterMs: null }],
  ] as const)("make no chaos with %s", (_, chaos, plan) => {
    for (const id of eventIds.slice(0, 50)) expect(planChaos(chaos, id)).toEqual(plan);
  });

  it.each([
    [
      "duplicate: 1",
      { ...NONE, duplicate: 1 },
      (p: ReturnType<typeof planChaos>) => p.duplicateAfterMs !== null && p.duplicateAfterMs >= 1000 && p.duplicateAfterMs <= 10_000,
    ],
    ["reorder: 1", { ...NONE, reorder: 1 }, (p: ReturnType<typeof planChaos>) => p.held && firstAttemptMark(p) === "reordered"],
    [
      "delay_ms [200, 300]",
      { ...NONE, delay_ms: [200, 300] as [number, number] },
      (p: ReturnType<typeof planChaos>) => p.delayMs >= 200 && p.delayMs <= 300 && firstAttemptMark(p) === "delayed",
    ],
    ["delay_ms [500, 500]", { ...NONE, delay_ms: [500, 500] as [number, number] }, (p: ReturnType<typeof planChaos>) => p.delayMs === 500],
  ])("with %s, every event gets it", (_, chaos, holds) => {
    for (const id of eventIds.slice(0, 200)) expect(holds(planChaos(chaos, id))).toBe(true);
  });

  it("reach both ends of the duplicate and delay ranges", () => {
    const plans = eventIds.map((id) => planChaos({ ...NONE, duplicate: 1, delay_ms: [0, 3] }, id));
    expect(new Set(plans.map((p) => p.delayMs))).toEqual(new Set([0, 1, 2, 3]));
    const afters = plans.map((p) => p.duplicateAfterMs!);
    expect(Math.min(...afters)).toBeLessThan(1100);
    expect(Math.max(...afters)).toBeGreaterThan(9900);
  });

  it("duplicate 0.3 over 2,000 events duplicates near 30 %", () => {
    const share = eventIds.filter((id) => planChaos({ ...NONE, duplicate: 0.3 }, id).duplicateAfterMs !== null).length / eventIds.length;
    expect(share).toBeGreaterThan(0.27);
    expect(share).toBeLessThan(0.33);
  });
});

describe("the chaos object", () => {
  const schema = chaosSchema("chaos");
  it("fills what is left out", () => {
    expect(schema.parse({})).toEqual(NONE);
    expect(schema.parse({ duplicate: 0.2, reorder: 0.2, delay_ms: [0, 3000], seed: 42 })).toEqual({
      duplicate: 0.2,
      reorder: 0.2,
      delay_ms: [0, 3000],
      seed: 42,
    });
  });

  it.each([
    [{ duplicate: 1.5 }, "chaos.duplicate must be a number from 0 to 1 (got 1.5)."],
    [{ duplicate: "0.2" }, "chaos.duplicate must be a number from 0 to 1 (got a string)."],
    [{ reorder: -0.1 }, "chaos.reorder must be a number from 0 to 1 (got -0.1)."],
    [{ delay_ms: [3000, 0] }, "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got an array)."],
    [{ delay_ms: [0, 60001] }, "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got 60001)."],
    [{ delay_ms: 100 }, "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got 100)."],
    [{ seed: 1.5 }, "chaos.seed must be an integer (got 1.5)."],
    ["x", 'chaos must be an object such as {"duplicate": 0.2, "reorder": 0.2, "delay_ms": [0, 3000], "seed": 42}, or null (got a string).'],
  ])("refuses %j: %s", (input, message) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(message);
  });

  it("refuses an unknown setting", () => {
    const result = schema.safeParse({ duplicates: 0.2 });
    expect(result.error!.issues[0]!.code).toBe("unrecognized_keys");
  });

  it('says "must …" without a label, for the config file\'s messages', () => {
    expect(chaosSchema().safeParse({ duplicate: 2 }).error!.issues[0]!.message).toBe("must be a number from 0 to 1 (got 2).");
  });
});

describe("--chaos specs", () => {
  it.each([
    ["duplicate=0.2,reorder=0.2,delay=0-3000,seed=42", { duplicate: 0.2, reorder: 0.2, delay_ms: [0, 3000], seed: 42 }],
    ["duplicate=1", { ...NONE, duplicate: 1 }],
    [" seed=7 , reorder=0.5 ", { ...NONE, reorder: 0.5, seed: 7 }],
    ["delay=500", { ...NONE, delay_ms: [500, 500] }],
    ["seed=-3", { ...NONE, seed: -3 }],
  ])("reads %j", (spec, chaos) => {
    expect(parseChaosSpec(spec)).toEqual({ chaos });
  });

  it.each([
    ["", "it is empty; give e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42"],
    ["duplicate", '"duplicate" is not key=value; give e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42'],
    ["dupe=0.2", 'unknown setting "dupe" (known: duplicate, reorder, delay, seed)'],
    ["duplicate=0.2,duplicate=0.3", '"duplicate" is given twice'],
    ["duplicate=2", "duplicate must be a number from 0 to 1 (got 2)"],
    ["reorder=half", "reorder must be a number from 0 to 1 (got a string)"],
    ["delay=3000-0", "delay must be a list [min, max] of integers from 0 to 60000, min not above max (got an array)"],
    ["delay=0-90000", "delay must be a list [min, max] of integers from 0 to 60000, min not above max (got 90000)"],
    ["delay=soon", "delay must be a list [min, max] of integers from 0 to 60000, min not above max (got a string)"],
    ["seed=4.5", "seed must be an integer (got 4.5)"],
  ])("refuses %j: %s", (spec, problem) => {
    expect(parseChaosSpec(spec)).toEqual({ problem });
  });

  it.each<[Chaos, string]>([
    [NONE, "duplicate=0,reorder=0,delay=0,seed=0"],
    [{ duplicate: 0.2, reorder: 0.25, delay_ms: [0, 3000], seed: 42 }, "duplicate=0.2,reorder=0.25,delay=0-3000,seed=42"],
    [{ ...NONE, delay_ms: [500, 500], seed: -3 }, "duplicate=0,reorder=0,delay=500,seed=-3"],
  ])("writes %j as %s, which reads back as the same settings", (chaos, spec) => {
    expect(chaosSpecText(chaos)).toBe(spec);
    expect(parseChaosSpec(spec)).toEqual({ chaos });
  });
});
