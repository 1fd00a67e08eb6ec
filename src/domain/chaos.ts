import * as z from "zod";
import { sha256Hex } from "../shared/sha256.js";
import { jsonTypeOf, reportedProblem } from "./validation.js";

/** The most `delay_ms` may ask for, in ms of clock time. */
export const DELAY_MAX_MS = 60_000;

/**
 * Webhook chaos on an endpoint (docs/webhooks.md): duplicates, reordering and delays, decided by a pure
 * function of the seed, the event id and the kind of chaos, so that a run repeats exactly. This is
 * the settings as stored and as the endpoint object shows them (every member filled in); the
 * OpenAPI document describes them from it. Input is read by `chaosSchema`, which fills defaults.
 */
export const chaosAnswerSchema = z.lazy(() => {
  const probability = z.number().min(0).max(1);
  const delayBound = z.int().min(0).max(DELAY_MAX_MS);
  return z.strictObject({
    /** Probability (0–1) that a succeeded delivery is sent once more. */
    duplicate: probability,
    /** Probability (0–1) that a delivery's first attempt is held until the next delivery is sent. */
    reorder: probability,
    /** Extra wait before each first attempt, drawn uniformly from [min, max] ms of clock time. */
    delay_ms: z.tuple([delayBound, delayBound]),
    seed: z.int(),
  });
});

export type Chaos = z.infer<typeof chaosAnswerSchema>;

/** How an attempt made by chaos is marked. */
export const CHAOS_MARKS = ["duplicate", "reordered", "delayed"] as const;
export const chaosMarkSchema = z.lazy(() => z.enum(CHAOS_MARKS));
export type ChaosMark = z.infer<typeof chaosMarkSchema>;

/** A held first attempt goes out at the latest this long (clock time) after it was due. */
export const REORDER_HOLD_MAX_MS = 10_000;
/** A duplicate goes out this long (clock time) after the success it repeats, at least and at most. */
export const DUPLICATE_AFTER_MS = { min: 1_000, max: 10_000 } as const;

/** What chaos does to one event's delivery to one endpoint. */
export interface ChaosPlan {
  /** Extra wait before the first attempt (0: none). */
  delayMs: number;
  /** Whether the first attempt is held back for a later delivery to go first. */
  held: boolean;
  /** When the delivery succeeds, a duplicate goes out this long after; null: none. */
  duplicateAfterMs: number | null;
}

const NO_CHAOS: ChaosPlan = { delayMs: 0, held: false, duplicateAfterMs: null };

/**
 * A number in [0, 1) that only the seed, the event id and the draw's name decide: the leading
 * 52 bits of a SHA-256, so every value a double can hold exactly is equally likely.
 */
export function chaosDraw(seed: number, eventId: string, draw: string): number {
  return Number.parseInt(sha256Hex(`${seed}:${eventId}:${draw}`).slice(0, 13), 16) / 2 ** 52;
}

/** An integer drawn uniformly from [min, max]. */
function between(min: number, max: number, unit: number): number {
  return min + Math.min(max - min, Math.floor(unit * (max - min + 1)));
}

/** The chaos an endpoint's settings make for one event; none without settings. */
export function planChaos(chaos: Chaos | null, eventId: string): ChaosPlan {
  if (!chaos) return NO_CHAOS;
  const draw = (name: string) => chaosDraw(chaos.seed, eventId, name);
  const [min, max] = chaos.delay_ms;
  return {
    delayMs: max === 0 ? 0 : between(min, max, draw("delay")),
    held: draw("reorder") < chaos.reorder,
    duplicateAfterMs: draw("duplicate") < chaos.duplicate ? between(DUPLICATE_AFTER_MS.min, DUPLICATE_AFTER_MS.max, draw("duplicate_after")) : null,
  };
}

/** How chaos marks a first attempt it held or delayed; null when it did neither. */
export function firstAttemptMark(plan: ChaosPlan): ChaosMark | null {
  return plan.held ? "reordered" : plan.delayMs > 0 ? "delayed" : null;
}

const PROBABILITY = "a number from 0 to 1";
const DELAY_RULE = `a list [min, max] of integers from 0 to ${DELAY_MAX_MS}, min not above max`;

/**
 * The `chaos` object's schema. With a `label` (e.g. "chaos", or "" for the fields' bare names) each
 * message starts with the field's name, as the API's do; without one they start with "must", for a
 * config file's messages, which name the field themselves.
 */
export function chaosSchema(label?: string) {
  const name = (field: string) => (label === undefined ? "" : `${[label, field].filter(Boolean).join(".")} `);
  const say = (field: string, what: string) => (issue: { input?: unknown }) =>
    `${name(field)}must be ${what}${issue.input === undefined ? "" : ` (got ${describe(issue.input)})`}.`;
  const probability = (field: string) =>
    z
      .number({ error: say(field, PROBABILITY) })
      .min(0, { error: say(field, PROBABILITY) })
      .max(1, { error: say(field, PROBABILITY) });
  const delayBound = z
    .int({ error: say("delay_ms", DELAY_RULE) })
    .min(0, { error: say("delay_ms", DELAY_RULE) })
    .max(DELAY_MAX_MS, { error: say("delay_ms", DELAY_RULE) });
  return z
    .strictObject(
      {
        duplicate: probability("duplicate").default(0),
        reorder: probability("reorder").default(0),
        delay_ms: z
          .tuple([delayBound, delayBound], { error: say("delay_ms", DELAY_RULE) })
          .refine(([min, max]) => min <= max, { error: say("delay_ms", DELAY_RULE) })
          .meta({ description: `[min, max] in ms of clock time, min not above max.` })
          .default([0, 0]),
        seed: z.int({ error: say("seed", "an integer") }).default(0),
      },
      { error: say("", 'an object such as {"duplicate": 0.2, "reorder": 0.2, "delay_ms": [0, 3000], "seed": 42}, or null') },
    )
    .transform((chaos): Chaos => ({ ...chaos, delay_ms: [chaos.delay_ms[0], chaos.delay_ms[1]] }));
}

function describe(input: unknown): string {
  return typeof input === "number" ? String(input) : jsonTypeOf(input);
}

/** The settings a `--chaos` spec names, or what is wrong with them in its own words ("delay", not "delay_ms"). */
function checkedSpec(value: Record<string, unknown>): { chaos: Chaos } | { problem: string } {
  const result = chaosSchema("").safeParse(value);
  if (result.success) return { chaos: result.data };
  return {
    problem: reportedProblem(result.error)
      .message.replace(/^delay_ms/, "delay")
      .replace(/\.$/, ""),
  };
}

export const CHAOS_SPEC_EXAMPLE = "duplicate=0.2,reorder=0.2,delay=0-3000,seed=42";

const SPEC_PROBABILITY = "(?:0(?:\\.[0-9]+)?|1(?:\\.0+)?)";
const SPEC_DELAY = "(?:60000|[1-5]?[0-9]{1,4})";
const SPEC_SETTING = `(?:duplicate=${SPEC_PROBABILITY}|reorder=${SPEC_PROBABILITY}|delay=${SPEC_DELAY}(?:-${SPEC_DELAY})?|seed=-?[0-9]{1,15})`;
/** The settings' shapes in a `--chaos` spec, for the OpenAPI document (a setting given twice, or a delay's min above its max, is refused too). */
export const CHAOS_SPEC_PATTERN = `^ *${SPEC_SETTING} *(?:, *${SPEC_SETTING} *)*$`;
const SPEC_KEYS = new Set(["duplicate", "reorder", "delay", "seed"]);

/** A JSON number the way `--chaos` writes it, or the raw text (refused by the schema, named as a string). */
function numberIn(text: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * Parses `--chaos duplicate=0.2,reorder=0.2,delay=0-3000,seed=42` (any subset, any order; `delay=500`
 * means exactly 500 ms) into the same settings as the API's `chaos`, with the same ranges.
 */
export function parseChaosSpec(spec: string): { chaos: Chaos } | { problem: string } {
  const raw: Record<string, unknown> = {};
  const parts = spec.split(",").map((part) => part.trim());
  if (spec.trim() === "") return { problem: `it is empty; give e.g. ${CHAOS_SPEC_EXAMPLE}` };
  for (const part of parts) {
    const match = /^([a-z_]+)=(.*)$/.exec(part);
    if (!match) return { problem: `"${part}" is not key=value; give e.g. ${CHAOS_SPEC_EXAMPLE}` };
    const [, key, value] = match as unknown as [string, string, string];
    if (!SPEC_KEYS.has(key)) return { problem: `unknown setting "${key}" (known: duplicate, reorder, delay, seed)` };
    const field = key === "delay" ? "delay_ms" : key;
    if (field in raw) return { problem: `"${key}" is given twice` };
    if (key === "delay") {
      const range = /^(\d+)(?:-(\d+))?$/.exec(value);
      raw[field] = range ? [Number(range[1]), Number(range[2] ?? range[1])] : value;
    } else raw[field] = numberIn(value);
  }
  return checkedSpec(raw);
}

/**
 * Chaos settings written the way `--chaos` reads them, so a printed spec can be pasted back.
 *
 * @example
 * chaosSpecText({ duplicate: 0.2, reorder: 0, delay_ms: [0, 3000], seed: 42 }) // "duplicate=0.2,reorder=0,delay=0-3000,seed=42"
 */
export function chaosSpecText(chaos: Chaos): string {
  const [min, max] = chaos.delay_ms;
  return `duplicate=${chaos.duplicate},reorder=${chaos.reorder},delay=${min === max ? min : `${min}-${max}`},seed=${chaos.seed}`;
}
