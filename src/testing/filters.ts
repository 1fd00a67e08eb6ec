import * as z from "zod";
import { withArticle } from "../domain/articles.js";
import { chaosMarkSchema, type ChaosMark } from "../domain/chaos.js";
import { EVENT_TYPES } from "../domain/events.js";
import { closest } from "../domain/suggest.js";
import { MAX_ATTEMPTS } from "../domain/retry-schedule.js";
import type { EventFilter, WaitOptions, WebhookFilter } from "./types.js";

export const DEFAULT_WAIT_TIMEOUT_MS = 5000;
/** The longest delay a Node timer keeps; a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

// Built on first use, like the API's schemas (contracts/common.ts): a run that never waits builds none.
const eventFilterShape = () => {
  const eventType = z.enum(EVENT_TYPES);
  return {
    type: z.union([eventType, z.array(eventType).min(1)]).optional(),
    objectId: z.string().min(1).optional(),
  };
};
const eventFilterSchema = z.lazy(() => z.strictObject(eventFilterShape()));
const webhookFilterSchema = z.lazy(() =>
  z.strictObject({
    ...eventFilterShape(),
    url: z.string().min(1).optional(),
    status: z.enum(["succeeded", "failed", "attempted"]).optional(),
    // What a wait for a retry or for chaos asks (docs/testing.md, "Waiting for a retry or for chaos").
    attempt: z.number().int().min(1).max(MAX_ATTEMPTS).optional(),
    chaos: chaosMarkSchema.optional(),
    // Only the deliveries a resend made (true), or only those the event got when it happened (false).
    resent: z.boolean().optional(),
  }),
);
const waitOptionsSchema = z.lazy(() => z.strictObject({ timeout: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional() }).optional());

/** A filter that was checked: `types` undefined matches every type. */
export interface EventMatcher {
  types: readonly string[] | undefined;
  objectId: string | undefined;
  /** Only this company's events (the HTTP waits); undefined: every company's (startPaysim's waits). */
  companyId?: string;
}

export interface WebhookMatcher extends EventMatcher {
  url: string | undefined;
  status: "succeeded" | "failed" | "attempted";
  /** The delivery's scheduled attempt numbered this (or a later one) has ended. */
  attempt: number | undefined;
  /** An ended attempt carries this chaos mark. */
  chaos: ChaosMark | undefined;
  /** Only deliveries a resend made (true), or none of them (false). */
  resent: boolean | undefined;
}

/** The fields of an event a filter looks at. */
export interface EventFacts {
  type: string;
  objectId: string | null;
  companyId: string;
}

/** The fields of a delivery a filter looks at. */
export interface DeliveryFacts {
  url: string;
  status: string;
  /** Attempts that have ended (one in flight is not counted), chaos duplicates included. */
  endedAttempts: number;
  /** Attempts of the retry schedule that have ended (1 to 7): a chaos duplicate is not one of them. */
  attemptCount: number;
  /** The chaos marks of the attempts that have ended. */
  chaosMarks: readonly string[];
  /** Whether a resend made it. */
  resent: boolean;
}

/** What each field must be, as an error message words it. */
const RULES: Record<string, string> = {
  type: "an event type, or a non-empty list of event types",
  objectId: 'a non-empty string: the id of the object the event is about, e.g. "pi_…"',
  url: "a non-empty string: the endpoint's URL",
  status: '"succeeded", "failed" or "attempted"',
  resent: "true (only the deliveries a resend made) or false (only those the event got when it happened)",
  timeout: "a whole number of milliseconds from 0 to 2147483647",
};

/** How a value reads in a message: JSON, and its kind when JSON alone would not say it. */
function shown(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number" && !Number.isFinite(value)) return `${value} (a number)`;
  const json = JSON.stringify(value);
  return value !== null && typeof value !== "string" && !Array.isArray(value) ? `${json} (${withArticle(typeof value)})` : json;
}

/** The problem with a `type` value, with the valid types to pick from. */
function typeProblem(value: unknown): string {
  if (Array.isArray(value) && value.length === 0) return "type is an empty list; give at least one event type, or leave type out to match every type.";
  const values: unknown[] = Array.isArray(value) ? value : [value];
  const index = values.findIndex((one) => typeof one !== "string" || !(EVENT_TYPES as readonly string[]).includes(one));
  const bad = values[index];
  const where = Array.isArray(value) ? `type[${index}]` : "type";
  if (typeof bad !== "string") return `${where} is ${shown(bad)}; it must be ${RULES.type}.`;
  const guess = closest(bad, EVENT_TYPES);
  return `${where} ${shown(bad)} is not an event type${guess ? `; did you mean "${guess}"?` : "."} The event types are: ${EVENT_TYPES.join(", ")}.`;
}

/** One sentence per problem: the value, the rule it breaks and what to write instead. */
function problems(issues: readonly z.core.$ZodIssue[], value: unknown, what: string, keys: readonly string[], example: string): string[] {
  const sentences: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const guess = closest(key, keys);
        sentences.push(`unknown key ${JSON.stringify(key)}${guess ? `; did you mean "${guess}"?` : "."} Known keys: ${keys.join(", ")}.`);
      }
      continue;
    }
    const field = issue.path[0];
    if (field === undefined) {
      sentences.push(`the ${what} is ${shown(value)}; pass an object such as ${example}.`);
    } else if (field === "type") {
      sentences.push(typeProblem((value as Record<string, unknown>).type));
    } else {
      sentences.push(
        `${String(field)} is ${shown((value as Record<string, unknown>)[field as string])}; it must be ${RULES[field as string] ?? issue.message}.`,
      );
    }
  }
  return [...new Set(sentences)];
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string, example: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const built = schema instanceof z.ZodLazy ? (schema.unwrap() as z.ZodType) : schema;
  const shape = (built instanceof z.ZodObject ? built : built instanceof z.ZodOptional ? built.unwrap() : undefined) as z.ZodObject | undefined;
  const keys = shape ? Object.keys(shape.shape) : [];
  throw new TypeError(`Bad ${what}: ${problems(result.error.issues, value, what, keys, example).join(" ")}`);
}

const typesOf = (type: string | readonly string[] | undefined) => (type === undefined ? undefined : typeof type === "string" ? [type] : type);

/** Checks an events filter; a TypeError names what is wrong (an unknown type, a misspelt field). */
export function eventMatcher(filter: unknown = {}): EventMatcher {
  const parsed: EventFilter = parse(eventFilterSchema, filter, "events filter", '{ type: "payment_intent.captured" }, or {} for every event');
  return { types: typesOf(parsed.type), objectId: parsed.objectId };
}

/**
 * Checks a webhooks filter. `status` defaults to "succeeded", or to "attempted" (no condition on
 * the delivery's status) when the filter asks for an `attempt` or a `chaos` mark.
 */
export function webhookMatcher(filter: unknown = {}): WebhookMatcher {
  const parsed: WebhookFilter = parse(
    webhookFilterSchema,
    filter,
    "webhooks filter",
    '{ type: "payment_intent.captured", status: "succeeded" }, or {} for every delivery',
  );
  const byAttempt = parsed.attempt !== undefined || parsed.chaos !== undefined;
  return {
    types: typesOf(parsed.type),
    objectId: parsed.objectId,
    url: parsed.url,
    status: parsed.status ?? (byAttempt ? "attempted" : "succeeded"),
    attempt: parsed.attempt,
    chaos: parsed.chaos,
    resent: parsed.resent,
  };
}

/** The timeout of a wait in real milliseconds. */
export function waitTimeout(options: unknown): number {
  const parsed: WaitOptions | undefined = parse(waitOptionsSchema, options, "wait options", "{ timeout: 5000 }");
  return parsed?.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
}

export function matchesEvent(matcher: EventMatcher, event: EventFacts): boolean {
  return (
    (matcher.types === undefined || matcher.types.includes(event.type)) &&
    (matcher.objectId === undefined || matcher.objectId === event.objectId) &&
    (matcher.companyId === undefined || matcher.companyId === event.companyId)
  );
}

/** Whether a delivery of this event has reached what the filter waits for. */
export function matchesDelivery(matcher: WebhookMatcher, event: EventFacts, delivery: DeliveryFacts): boolean {
  if (!matchesEvent(matcher, event)) return false;
  if (matcher.url !== undefined && matcher.url !== delivery.url) return false;
  if (matcher.attempt !== undefined && delivery.attemptCount < matcher.attempt) return false;
  if (matcher.chaos !== undefined && !delivery.chaosMarks.includes(matcher.chaos)) return false;
  if (matcher.resent !== undefined && matcher.resent !== delivery.resent) return false;
  if (matcher.status === "attempted") return delivery.endedAttempts > 0;
  return delivery.status === matcher.status;
}

/** The filter as a message shows it: the fields given, as JSON. */
export function describeFilter(filter: unknown): string {
  return JSON.stringify(filter ?? {});
}
