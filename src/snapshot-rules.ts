/**
 * What each column of a snapshot may hold: only values paysim itself could have written
 * (docs/guarantees.md, "An import keeps only what paysim could have written"). Each column is
 * checked with the schema or rule the API, a config file or paysim's own writers hold it to (the
 * resources' answer schemas, the endpoint's input schema, the chaos and fault schemas, the state
 * lists of the domain, the stored clock's range), not with a second list of its own; the store
 * reads every row once and asks these (store/snapshot-rows.ts). A table or column the schema gains
 * without a rule here makes every import fail in paysim's own tests.
 */
import * as z from "zod";
import { deliveryAttemptSchema, deliverySchema, eventSchema } from "./contracts/events.js";
import { faultSchema } from "./contracts/faults.js";
import { paymentIntentSchema } from "./contracts/payment-intents.js";
import { payoutSchema } from "./contracts/payouts.js";
import { createEndpointInput, webhookEndpointSchema } from "./contracts/webhook-endpoints.js";
import { idOf, requestIdSchema, timestampSchema } from "./domain/answer-schemas.js";
import { CARD_BRANDS } from "./domain/card.js";
import { chaosAnswerSchema, chaosSchema } from "./domain/chaos.js";
import { resourceOfEventType } from "./domain/resources.js";
import { faultRuleSchema } from "./domain/faults.js";
import { checkMoveAmount, statusEffects, type PayoutStatus } from "./domain/payout.js";
import { isSigningSecret, SIGNING_SECRET_RULE } from "./domain/secret-keys.js";
import { companyFieldSchemas } from "./domain/start-inputs.js";
import { descriptionSchema, reportedProblem } from "./domain/validation.js";
import { isHttpUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "./domain/webhook-url.js";
import { TEST_CARDS, TEST_DESTINATIONS } from "./fixture-data.js";
import { ClockRangeError, parseStoredClockMs } from "./runtime/clock.js";
import { STORED_CLOCK_KEYS } from "./runtime/clock-persistence.js";
import { payoutMovePayloadSchema, PAYOUT_MOVE_JOB } from "./sim/payout-simulator.js";
import { COMPUTED_FORMS } from "./store/snapshot-checks.js";
import type { ColumnCheck, KnownRow, SnapshotRow, SnapshotRules } from "./store/snapshot-rows.js";
import { deliveryJobPayloadSchema, DELIVERY_JOB, type DeliveryJobPayload } from "./webhooks/delivery-job.js";

/** The schema's own words for what is wrong with `value`, or undefined when it passes. */
function problemWith(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const problem = reportedProblem(result.error);
  const where = problem.path.length > 0 ? `at ${problem.path.map(String).join(".")}: ` : "";
  return problem.unknownField ? `${where}it holds a member no paysim writes` : `${where}${problem.message}`;
}

/** A column whose value `schema` holds to. */
const by =
  (schema: z.ZodType): ColumnCheck =>
  (value) =>
    problemWith(schema, value);

/** A column of the resource an answer schema describes: the API's own schema of that member. */
function member(resource: { unwrap(): z.ZodObject }, name: string): ColumnCheck {
  let schema: z.ZodType | undefined; // built on first use, as the resource's schema is
  return (value) => problemWith((schema ??= resource.unwrap().shape[name] as z.ZodType), value);
}

/** The value a text column holds as JSON, or what keeps it from being JSON. */
function parsedJson(value: unknown): { parsed: unknown } | { problem: string } {
  if (typeof value !== "string") return { problem: "must be JSON text" };
  try {
    return { parsed: JSON.parse(value) as unknown };
  } catch {
    return { problem: "is not JSON" };
  }
}

/**
 * A text column holding JSON that `schema` holds to (NULL too when `nullable`), then, when given,
 * what `also` says of the parsed value and its row (what a schema cannot see: other rows, other columns).
 */
function json(schema: z.ZodType, nullable = false, also?: (parsed: unknown, row: SnapshotRow, known: KnownRow) => string | undefined): ColumnCheck {
  return (value, row, known) => {
    if (value === null && nullable) return undefined;
    const read = parsedJson(value);
    if ("problem" in read) return read.problem;
    return problemWith(schema, read.parsed) ?? also?.(read.parsed, row, known);
  };
}

/** The id of a row of `table` read before (`key` of that table's rules). */
const refersTo =
  (table: string, what = table): ColumnCheck =>
  (value, _row, known) =>
    known(table, value) ? undefined : `names no row of ${what} in the snapshot`;

let built: SnapshotRules | undefined;

/**
 * Every table of the current schema, each after the tables its rows refer to. Built on the first
 * import: a start without one builds none of these schemas.
 */
export function snapshotRules(): SnapshotRules {
  return (built ??= buildRules());
}

function buildRules(): SnapshotRules {
  /** The row's own sequence number: SQLite's rowid, a positive integer. */
  const seq = by(z.int().min(1));
  /** A time paysim's clock can show: an ISO 8601 UTC timestamp with milliseconds (the answers' schema), from 1970 to 9999. */
  const clockTime = timestampSchema.refine((text) => Date.parse(text) >= 0, { error: "must be a time from 1970 on" });
  const timestamp = by(clockTime);
  const maybeTimestamp = by(clockTime.nullable());
  /** Milliseconds of paysim's clock as text, in the range a stored clock may hold (the rule a start reads the clock with). */
  function clockText(text: string): string | undefined {
    try {
      parseStoredClockMs(text);
      return undefined;
    } catch (error) {
      if (error instanceof ClockRangeError) return `must be milliseconds of paysim's clock, from 0 (it ${error.message})`;
      throw error;
    }
  }
  const clockMs: ColumnCheck = (value) => (Number.isInteger(value) ? clockText(String(value)) : "must be an integer number of milliseconds");
  const maybeClockMs: ColumnCheck = (value, row, known) => (value === null ? undefined : clockMs(value, row, known));
  const flag = (values: readonly number[]): ColumnCheck => by(z.union(values.map((v) => z.literal(v))));
  /** A SHA-256 digest as paysim stores one: 64 lower-case hex digits. */
  const sha256Hex = by(z.string().regex(COMPUTED_FORMS.sha256Hex, { error: "must be a SHA-256 digest (64 lower-case hex digits)" }));

  /** A live endpoint's URL is one the API would take; a deleted one's was masked when it was retired. */
  const endpointUrl: ColumnCheck = (value, row) =>
    row.deleted_at === null ? problemWith(createEndpointInput.unwrap().shape.url, value) : deliveryUrl(value, row, () => false);
  /** A delivery keeps the URL its endpoint had (masked once the endpoint was retired): an http(s) URL at most. */
  const deliveryUrl: ColumnCheck = (value) =>
    typeof value === "string" && value.length <= WEBHOOK_URL_MAX_LENGTH && isHttpUrl(value) ? undefined : WEBHOOK_URL_RULE;

  /**
   * A payment intent's card: both halves or neither, the last four digits and a brand paysim names.
   * An authorization gives the card (and, when it fails, its reason): a created intent has none yet,
   * an authorized, captured or failed one has it; a canceled one may have either.
   */
  const CARDLESS_STATES = new Set(["created"]);
  const CARDED_STATES = new Set(["authorized", "captured", "failed"]);
  const cardLast4: ColumnCheck = (value, row) => {
    if (value !== null) {
      if (CARDLESS_STATES.has(String(row.state))) return `must be NULL in state ${String(row.state)}: only an authorization gives a card`;
      return problemWith(z.string().regex(/^[0-9]{4}$/), value);
    }
    if (row.card_brand !== null) return "must be set when card_brand is";
    return CARDED_STATES.has(String(row.state)) ? `must be set in state ${String(row.state)}: the authorization gave a card` : undefined;
  };
  const cardBrand: ColumnCheck = (value, row) =>
    value === null ? (row.card_last4 === null ? undefined : "must be set when card_last4 is") : problemWith(z.enum(CARD_BRANDS), value);
  const CARD_FAILURES = [...new Set(TEST_CARDS.flatMap((card) => (card.failure_reason === null ? [] : [card.failure_reason])))];
  const cardFailure = z.enum(CARD_FAILURES as [string, ...string[]]);
  const intentFailure: ColumnCheck = (value, row) =>
    row.state === "failed"
      ? problemWith(cardFailure, value)
      : value === null
        ? undefined
        : `must be NULL in state ${String(row.state)}: only a failed payment intent has a failure reason`;

  /** A payout's destination token is a test token of its destination type, and shows as that token does. */
  const destinationOf = (row: SnapshotRow) => TEST_DESTINATIONS.find((d) => d.token === row.destination_token && d.type === row.destination_type);
  const destinationToken: ColumnCheck = (_value, row) =>
    destinationOf(row)
      ? undefined
      : `must be a test token of destination_type ${String(row.destination_type)} (${TEST_DESTINATIONS.map((d) => d.token).join(", ")})`;
  const destinationMasked: ColumnCheck = (value, row) => {
    const destination = destinationOf(row);
    return destination === undefined || destination.masked === value ? undefined : `must be how its token shows (${JSON.stringify(destination.masked)})`;
  };
  /** What a payout's status sets besides itself (domain/payout.ts): its failure reason, and the amount reversed. */
  const payoutFailure = member(payoutSchema, "failure_reason");
  const failureOfStatus: ColumnCheck = (value, row, known) => {
    const problem = payoutFailure(value, row, known);
    if (problem !== undefined || typeof row.amount !== "number") return problem;
    const expected = statusEffects(row.status as PayoutStatus, row.amount, undefined).failure_reason;
    return value === expected ? undefined : `must be ${expected === null ? "NULL" : JSON.stringify(expected)} in status ${String(row.status)}`;
  };
  const payoutAmountReversed = member(payoutSchema, "amount_reversed");
  const amountReversed: ColumnCheck = (value, row, known) => {
    const problem = payoutAmountReversed(value, row, known);
    if (problem !== undefined || typeof row.amount !== "number") return problem;
    if (row.status === "partially_reversed") {
      try {
        checkMoveAmount("partially_reversed", row.amount, value as number);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    }
    const expected = statusEffects(row.status as PayoutStatus, row.amount, undefined).amount_reversed;
    return value === expected ? undefined : `must be ${expected} in status ${String(row.status)}`;
  };

  /** An event's body is the event as the API shows it, and says what its row says. */
  const eventBody = json(eventSchema, false, (parsed, row) => {
    const body = parsed as Record<string, unknown>;
    const differs = (["id", "type", "created_at", "request_id"] as const).find((name) => body[name] !== row[name]);
    return differs === undefined ? undefined : `its ${differs} differs from the row's`;
  });

  /** An event names an object of the resource its type belongs to (domain/resources.ts); ingested test events name none. */
  const eventObject: ColumnCheck = (value, row, known) => {
    if (value === null) return undefined;
    const resource = resourceOfEventType(String(row.type));
    if (!resource?.table) return "names an object, which no event of its type does";
    return known(resource.table, value) ? undefined : `names no ${resource.noun} of the snapshot`;
  };

  /** Chaos settings as an endpoint stores them: every member, in range, min delay not above max. */
  const chaosInput = chaosSchema("chaos");
  const endpointChaos = json(chaosAnswerSchema, true, (parsed) => problemWith(chaosInput, parsed));

  /** Each kind of job the scheduler runs: what its subject is, and what its payload holds. */
  const JOBS: Readonly<Record<string, { subject: ColumnCheck; payload: ColumnCheck }>> = {
    [DELIVERY_JOB]: {
      subject: refersTo("deliveries"),
      payload: json(deliveryJobPayloadSchema, false, (parsed, _row, known) => {
        const payload = parsed as DeliveryJobPayload;
        if (!known("webhook_endpoints", payload.endpoint_id)) return "its endpoint_id names no webhook endpoint of the snapshot";
        if (payload.attempt_seq !== undefined && !known("delivery_attempts", payload.attempt_seq))
          return "its attempt_seq names no delivery attempt of the snapshot";
        return undefined;
      }),
    },
    [PAYOUT_MOVE_JOB]: { subject: refersTo("payouts"), payload: json(payoutMovePayloadSchema) },
  };
  const jobKind = by(z.enum(Object.keys(JOBS) as [string, ...string[]]));
  // The kind is checked first (its column comes first): a job of no known kind never gets here.
  const jobSubject: ColumnCheck = (value, row, known) => JOBS[String(row.kind)]?.subject(value, row, known);
  const jobPayload: ColumnCheck = (value, row, known) => JOBS[String(row.kind)]?.payload(value, row, known);

  /** A fault rule's columns, read as the rule the API took (its match and counters). */
  const faultMatchPath = by(faultRuleSchema.unwrap().shape.match.unwrap().shape.path.unwrap().nullable());
  const ruleRemaining = member(faultSchema, "remaining");
  const faultRemaining: ColumnCheck = (value, row, known) =>
    ruleRemaining(value, row, known) ??
    (typeof value === "number" && typeof row.times === "number" && value > row.times ? "must not be more than times" : undefined);
  // As the API takes it: only on a rate_limited rule, within its range; the rules from before it was a field hold 1.
  const faultRetryAfter: ColumnCheck = (value, row) =>
    problemWith(faultRuleSchema, {
      fault: row.fault,
      ...(row.latency_ms === null ? {} : { latency_ms: row.latency_ms }),
      ...(value === null ? {} : { retry_after_seconds: value }),
    });
  const faultLatency: ColumnCheck = (value, row) => {
    const rule = { fault: row.fault, ...(value === null ? {} : { latency_ms: value }) };
    return problemWith(faultRuleSchema, rule);
  };

  /** The idempotency records: an answer the API gave to a keyed call, kept for replay. */
  const idempotencyBody = json(z.record(z.string(), z.unknown()));

  const companyFields = companyFieldSchemas(true);

  return [
    {
      table: "meta",
      key: "key",
      // The clock's offset and the furthest time it reached: what runtime/clock-persistence.ts writes.
      columns: { key: by(z.enum(STORED_CLOCK_KEYS)), value: (value) => (typeof value === "string" ? clockText(value) : "must be text") },
    },
    {
      table: "companies",
      key: "id",
      columns: {
        id: by(idOf("co")),
        name: by(companyFields.name.pipe(z.string())),
        currency: by(companyFields.currency),
        is_default: flag([0, 1]),
        created_at: timestamp,
      },
    },
    {
      table: "api_keys",
      // A key's hash is never quoted: a short key could be found again from it.
      key: "company_id",
      secret: ["key_hash"],
      columns: { key_hash: sha256Hex, company_id: refersTo("companies"), created_at: timestamp },
    },
    {
      table: "payment_intents",
      key: "id",
      columns: {
        seq,
        id: member(paymentIntentSchema, "id"),
        company_id: refersTo("companies"),
        reference: member(paymentIntentSchema, "reference"),
        amount: member(paymentIntentSchema, "amount"),
        currency: member(paymentIntentSchema, "currency"),
        description: by(descriptionSchema.nullable()),
        capture_method: member(paymentIntentSchema, "capture_method"),
        state: member(paymentIntentSchema, "state"),
        card_last4: cardLast4,
        card_brand: cardBrand,
        failure_reason: intentFailure,
        created_at: timestamp,
        updated_at: timestamp,
      },
    },
    {
      table: "payouts",
      key: "id",
      columns: {
        seq,
        id: member(payoutSchema, "id"),
        company_id: refersTo("companies"),
        reference: member(payoutSchema, "reference"),
        amount: member(payoutSchema, "amount"),
        currency: member(payoutSchema, "currency"),
        status: member(payoutSchema, "status"),
        destination_type: member(payoutSchema, "destination_type"),
        destination_token: destinationToken,
        destination_masked: destinationMasked,
        description: by(descriptionSchema.nullable()),
        failure_reason: failureOfStatus,
        amount_reversed: amountReversed,
        created_at: timestamp,
        updated_at: timestamp,
      },
    },
    {
      table: "events",
      key: "id",
      columns: {
        seq,
        id: member(eventSchema, "id"),
        company_id: refersTo("companies"),
        type: member(eventSchema, "type"),
        object_id: eventObject,
        request_id: by(requestIdSchema),
        created_at: timestamp,
        body: eventBody,
      },
    },
    {
      table: "webhook_endpoints",
      key: "id",
      secret: ["secret"],
      columns: {
        seq,
        id: member(webhookEndpointSchema, "id"),
        company_id: refersTo("companies"),
        url: endpointUrl,
        secret: (value) => (typeof value === "string" && isSigningSecret(value) ? undefined : SIGNING_SECRET_RULE),
        enabled_events: json(webhookEndpointSchema.unwrap().shape.enabled_events),
        created_at: timestamp,
        deleted_at: maybeTimestamp,
        from_forward_to: flag([0, 1, 2]),
        chaos: endpointChaos,
      },
    },
    {
      table: "deliveries",
      key: "id",
      columns: {
        seq,
        id: member(deliverySchema, "id"),
        event_id: refersTo("events"),
        company_id: refersTo("companies"),
        endpoint_id: refersTo("webhook_endpoints", "webhook endpoints"),
        url: deliveryUrl,
        status: member(deliverySchema, "status"),
        attempt_count: by(z.int().min(0)),
        next_attempt_ms: maybeClockMs,
        resent: flag([0, 1]),
        created_at: timestamp,
        updated_at: timestamp,
      },
    },
    {
      table: "delivery_attempts",
      key: "seq",
      columns: {
        seq,
        delivery_id: refersTo("deliveries"),
        attempted_at: timestamp,
        status_code: member(deliveryAttemptSchema, "status_code"),
        error: member(deliveryAttemptSchema, "error"),
        duration_ms: member(deliveryAttemptSchema, "duration_ms"),
        finished: flag([0, 1]),
        response_body: member(deliveryAttemptSchema, "response_body"),
        chaos: member(deliveryAttemptSchema, "chaos"),
        service_signature: by(z.string().regex(COMPUTED_FORMS.signatureHeader).nullable()),
      },
    },
    {
      table: "jobs",
      key: "seq",
      columns: { seq, kind: jobKind, subject_id: jobSubject, due_ms: clockMs, payload: jobPayload },
    },
    {
      table: "fault_rules",
      key: "id",
      columns: {
        seq,
        id: member(faultSchema, "id"),
        company_id: refersTo("companies"),
        fault: member(faultSchema, "fault"),
        method: by(faultSchema.unwrap().shape.match.shape.method),
        path: faultMatchPath,
        times: by(faultRuleSchema.unwrap().shape.times.unwrap()),
        remaining: faultRemaining,
        probability: member(faultSchema, "probability"),
        latency_ms: faultLatency,
        retry_after_seconds: faultRetryAfter,
        seed: by(faultRuleSchema.unwrap().shape.seed.unwrap()),
        matched: by(z.int().min(0)),
        created_at: timestamp,
      },
    },
    {
      table: "idempotency_keys",
      key: "seq",
      columns: {
        seq,
        company_id: refersTo("companies"),
        method: by(z.enum(["POST", "DELETE"])),
        path: by(z.string().regex(/^\/v1\/[!-~]*$/)),
        key: sha256Hex,
        // Empty for a call whose key was not kept with its body.
        fingerprint: by(z.union([z.literal(""), z.string().regex(COMPUTED_FORMS.sha256Hex)])),
        status: by(z.int().min(200).max(299)),
        body: idempotencyBody,
        created_ms: clockMs,
      },
    },
  ];
}
