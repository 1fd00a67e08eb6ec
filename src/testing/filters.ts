import * as z from "zod";
import { EVENT_TYPES } from "../domain/events.js";
import type { EventFilter, WaitOptions, WebhookFilter } from "./types.js";

export const DEFAULT_WAIT_TIMEOUT_MS = 5000;
/** The longest delay a Node timer keeps; a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

const eventType = z.enum(EVENT_TYPES);
const eventFilterShape = {
  type: z.union([eventType, z.array(eventType).min(1)]).optional(),
  objectId: z.string().min(1).optional(),
};
const eventFilterSchema = z.strictObject(eventFilterShape);
const webhookFilterSchema = z.strictObject({
  ...eventFilterShape,
  url: z.string().min(1).optional(),
  status: z.enum(["succeeded", "failed", "attempted"]).optional(),
});
const waitOptionsSchema = z.strictObject({ timeout: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional() }).optional();

/** A filter that was checked: `types` undefined matches every type. */
export interface EventMatcher {
  types: readonly string[] | undefined;
  objectId: string | undefined;
}

export interface WebhookMatcher extends EventMatcher {
  url: string | undefined;
  status: "succeeded" | "failed" | "attempted";
}

/** The fields of an event a filter looks at. */
export interface EventFacts {
  type: string;
  objectId: string | null;
}

/** The fields of a delivery a filter looks at. */
export interface DeliveryFacts {
  url: string;
  status: string;
  /** Attempts that have ended (one in flight is not counted). */
  endedAttempts: number;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : what}: ${issue.message}`);
  throw new TypeError(`Bad ${what}: ${problems.join("; ")}.`);
}

const typesOf = (type: string | readonly string[] | undefined) => (type === undefined ? undefined : typeof type === "string" ? [type] : type);

/** Checks an events filter; a TypeError names what is wrong (an unknown type, a misspelt field). */
export function eventMatcher(filter: unknown = {}): EventMatcher {
  const parsed: EventFilter = parse(eventFilterSchema, filter, "events filter");
  return { types: typesOf(parsed.type), objectId: parsed.objectId };
}

/** Checks a webhooks filter; `status` defaults to "succeeded". */
export function webhookMatcher(filter: unknown = {}): WebhookMatcher {
  const parsed: WebhookFilter = parse(webhookFilterSchema, filter, "webhooks filter");
  return { types: typesOf(parsed.type), objectId: parsed.objectId, url: parsed.url, status: parsed.status ?? "succeeded" };
}

/** The timeout of a wait in real milliseconds. */
export function waitTimeout(options: unknown): number {
  const parsed: WaitOptions | undefined = parse(waitOptionsSchema, options, "wait options");
  return parsed?.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
}

export function matchesEvent(matcher: EventMatcher, event: EventFacts): boolean {
  return (matcher.types === undefined || matcher.types.includes(event.type)) && (matcher.objectId === undefined || matcher.objectId === event.objectId);
}

/** Whether a delivery of this event has reached what the filter waits for. */
export function matchesDelivery(matcher: WebhookMatcher, event: EventFacts, delivery: DeliveryFacts): boolean {
  if (!matchesEvent(matcher, event)) return false;
  if (matcher.url !== undefined && matcher.url !== delivery.url) return false;
  if (matcher.status === "attempted") return delivery.endedAttempts > 0;
  return delivery.status === matcher.status;
}

/** The filter as a message shows it: the fields given, as JSON. */
export function describeFilter(filter: unknown): string {
  return JSON.stringify(filter ?? {});
}
