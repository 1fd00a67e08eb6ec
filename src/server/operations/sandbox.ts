import type * as z from "zod";
import { withRequestIdSchema } from "../../contracts/common.js";
import { clockAdvanceInput, clockSchema, resetAnswerSchema, resetInput } from "../../contracts/sandbox.js";
import { ApiError } from "../../domain/errors.js";
import { byResetCount, type ResetCounts } from "../../domain/resources.js";
import { ClockRangeError } from "../../runtime/clock.js";
import { answering, EXAMPLE_CLOCK } from "./examples.js";
import { defineAction } from "./define.js";

/** Moves the clock forward; the dashboard's advance buttons make this call. */
export const advanceClock = defineAction({
  operationId: "advanceClock",
  method: "post",
  path: "/v1/sandbox/clock/advance",
  summary: "Move the virtual clock forward; everything that falls due runs before the answer",
  body: clockAdvanceInput,
  answers: { 200: withRequestIdSchema(clockSchema) },
  example: { body: { seconds: 3600 }, answer: answering(EXAMPLE_CLOCK) },
  act: async ({ deps, body }) => {
    try {
      await deps.sandbox.advance(body.seconds);
    } catch (error) {
      // Repeated advances must not carry dates past year 9999: the clock refuses, unmoved.
      if (error instanceof ClockRangeError) throw new ApiError("invalid_request", error.message, "seconds");
      throw error;
    }
    return { resource: deps.sandbox.clock() };
  },
});

/** /v1/sandbox/clock: the virtual clock, read and moved forward (docs/testing.md). */
export const CLOCK_OPERATIONS = [
  defineAction({
    operationId: "getClock",
    method: "get",
    path: "/v1/sandbox/clock",
    summary: "Read the virtual clock",
    answers: { 200: withRequestIdSchema(clockSchema) },
    example: { answer: answering(EXAMPLE_CLOCK) },
    act: ({ deps }) => ({ resource: deps.sandbox.clock() }),
  }),
  advanceClock,
];

/** `POST /v1/sandbox/reset`: deletes this company's activity; other companies, endpoints and keys stay (docs/testing.md). */
export const resetSandbox = defineAction({
  operationId: "resetSandbox",
  method: "post",
  path: "/v1/sandbox/reset",
  summary: "Delete this company's activity",
  body: resetInput,
  answers: { 200: withRequestIdSchema(resetAnswerSchema) },
  example: {
    body: {},
    answer: answering({ object: "reset", deleted: { ...byResetCount(() => 0), payment_intents: 2, payouts: 1, events: 3 } satisfies ResetCounts }),
  },
  act: ({ deps, company }) => ({ resource: { object: "reset", deleted: deps.sandbox.reset(company.id) } satisfies z.infer<typeof resetAnswerSchema> }),
});
