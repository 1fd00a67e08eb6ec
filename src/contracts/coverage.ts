/** The contract of /v1/sandbox/coverage (docs/testing.md, "Coverage"). */
import * as z from "zod";
import { timestampSchema } from "../domain/answer-schemas.js";
import { oneOfQuery } from "./common.js";

import { COVERAGE_AREAS, COVERAGE_SCOPES, type CoverageReport } from "../domain/coverage-report.js";
import { FINDING_CODES, FINDING_RULES } from "../domain/findings.js";
import { byMachine } from "../domain/resources.js";
import type { RunReport } from "../domain/run-report.js";

export { COVERAGE_AREAS, type CoverageArea, type CoverageScope } from "../domain/coverage-report.js";

const byArea = <T extends z.ZodType>(value: T) =>
  z.strictObject(Object.fromEntries(COVERAGE_AREAS.map((area) => [area, value])) as Record<(typeof COVERAGE_AREAS)[number], T>);

/** What `GET /v1/sandbox/coverage` answers (docs/testing.md, "Coverage"). */
export const coverageSchema = z.lazy(() => {
  const tally = z.record(z.string(), z.number().int().min(0));
  const machines = z.strictObject(byMachine(() => tally));
  return z.strictObject({
    object: z.literal("coverage"),
    version: z.literal(1),
    since: timestampSchema,
    instances: z.number().int().min(0),
    operations: z.record(z.string(), z.strictObject({ calls: z.number().int().min(0), statuses: tally })),
    transitions: machines,
    refused_transitions: machines,
    events: tally,
    webhooks: tally,
    errors: tally,
    faults: tally,
    uncovered: byArea(z.array(z.string())),
    summary: byArea(z.string()),
  });
});

/** The query of `GET /v1/sandbox/coverage`: `scope=self` leaves out the instances the company started. */
export const coverageQuery = z.lazy(() =>
  z.strictObject({
    scope: oneOfQuery("scope", COVERAGE_SCOPES).meta({
      description: "all (the default): the company's own requests and those of the instances it started; self: its own only",
    }),
  }),
);

/** A finding of the run report (docs/testing.md, "Findings"). */
export const findingSchema = z.lazy(() =>
  z.strictObject({
    code: z.enum(FINDING_CODES),
    severity: z.enum(["error", "warning"]),
    title: z.string(),
    advice: z.string(),
    count: z.number().int().min(1),
    first_seen_at: timestampSchema,
    examples: z.array(z.strictObject({ request_id: z.string().nullable(), object_id: z.string().optional(), detail: z.string() })).max(5),
  }),
);

/** What `GET /v1/sandbox/report` answers: the coverage and the findings of the run, and their summary. */
export const reportSchema = z.lazy(() =>
  z.strictObject({
    object: z.literal("report"),
    version: z.literal(1),
    since: timestampSchema,
    coverage: coverageSchema,
    findings: z.array(findingSchema),
    summary: z.strictObject({ coverage: byArea(z.string()), findings: z.strictObject({ error: z.number().int().min(0), warning: z.number().int().min(0) }) }),
  }),
);

/** What `DELETE /v1/sandbox/coverage` answers: when counting starts again. */
export const coverageClearedSchema = z.lazy(() => z.strictObject({ object: z.literal("coverage_cleared"), since: timestampSchema }));

/** The report the example shows: a suite that created and captured one payment intent. */
export const COVERAGE_EXAMPLE: CoverageReport & { request_id: string } = {
  object: "coverage",
  version: 1,
  since: "2025-01-01T12:00:00.000Z",
  instances: 0,
  operations: { createPaymentIntent: { calls: 2, statuses: { "201": 1, "400": 1 } }, capturePaymentIntent: { calls: 1, statuses: { "200": 1 } } },
  transitions: { ...byMachine(() => ({})), payment_intent: { "created->authorized": 1, "authorized->captured": 1 }, payout: { "pending->processing": 0 } },
  refused_transitions: { ...byMachine(() => ({})), payment_intent: { "captured->canceled": 1 } },
  events: { "payment_intent.created": 1, "payment_intent.captured": 1, "payout.created": 0 },
  webhooks: { delivered_first_try: 2, gave_up: 0 },
  errors: { invalid_request: 1, not_found: 0 },
  faults: { server_error: 0 },
  uncovered: {
    operations: [],
    transitions: ["payout: pending->processing"],
    events: ["payout.created"],
    webhooks: ["gave_up"],
    errors: ["not_found"],
    faults: ["server_error"],
  },
  summary: { operations: "2/2", transitions: "2/3", events: "2/3", webhooks: "1/2", errors: "1/2", faults: "0/1" },
  request_id: "req_7hTq2WbX9mKc4LrN0ZpYs3Ad",
};

/** The report the example shows: the coverage example's run, whose client retried a lost creation under a new key. */
export const REPORT_EXAMPLE: RunReport & { request_id: string } = {
  object: "report",
  version: 1,
  since: COVERAGE_EXAMPLE.since,
  coverage: (({ request_id: _id, ...coverage }) => coverage)(COVERAGE_EXAMPLE),
  findings: [
    {
      ...FINDING_RULES.new_key_on_retry,
      count: 1,
      first_seen_at: "2025-01-01T12:00:05.000Z",
      examples: [
        {
          request_id: "req_3kVb8NwQ1xZr5TfH2mLc9pEa",
          detail:
            "POST /v1/payment_intents repeated req_3kVb8NwQ1xZr5TfH2mLc9pEa under a new Idempotency-Key; the same body was sent as req_9sLm4QwE2rTy6UiO1pAs8dFg, which got no answer",
        },
      ],
    },
  ],
  summary: { coverage: COVERAGE_EXAMPLE.summary, findings: { error: 1, warning: 0 } },
  request_id: COVERAGE_EXAMPLE.request_id,
};
