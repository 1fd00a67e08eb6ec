import { Hono } from "hono";
import * as z from "zod";
import { MAX_ADVANCE_SECONDS } from "../../domain/duration.js";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { PAYOUT_STATUSES } from "../../domain/payout.js";
import { amountSchema, currencySchema, freeFormObject, need, needOneOf, parseOrThrow } from "../../domain/validation.js";
import { ClockRangeError } from "../../runtime/clock.js";
import { eventResource } from "../../services/events.js";
import type { AppDeps, AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { resourceResponse, changeRequest, idempotentResponse } from "../respond.js";


const SECONDS_RULE = `an integer from 1 to ${MAX_ADVANCE_SECONDS}`;

const advanceSchema = z.strictObject({
  seconds: z
    .number({ error: need("seconds", SECONDS_RULE) })
    .int({ error: `seconds must be ${SECONDS_RULE}; fractions are not allowed.` })
    .min(1, { error: `seconds must be ${SECONDS_RULE}.` })
    .max(MAX_ADVANCE_SECONDS, { error: `seconds must be ${SECONDS_RULE} (one year).` }),
});

/** Reset takes no body: any field in one is refused as unknown (SPEC §2). */
const resetSchema = z.strictObject({});

const transitionSchema = z.strictObject({
  to: z.enum(PAYOUT_STATUSES, { error: needOneOf("to", PAYOUT_STATUSES) }),
  amount: z.number({ error: need("amount", "an integer in minor units") }).optional(),
});

/**
 * The ingest body: a known type, and data with the three validated fields; the
 * rest of data is free-form, but a `__proto__` key anywhere in it is refused.
 */
const ingestSchema = z.strictObject({
  type: z.enum(EVENT_TYPES, { error: needOneOf("type", EVENT_TYPES) }),
  data: freeFormObject(
    z.looseObject(
      {
        reference: z.string({ error: need("data.reference", "a string") }),
        amount: amountSchema,
        currency: currencySchema,
      },
      { error: need("data", "an object with reference, amount and currency") },
    ),
  ),
});

/** /v1/sandbox: controls a real provider does not have (SPEC §5, §8). */
export function sandboxRoutes({ clock, advanceClock, runIdempotently, payouts, resetSandbox }: AppDeps) {
  const app = new Hono<AppEnv>();
  const clockResource = () => ({
    object: "clock",
    now: clock.nowIso(),
    offset_seconds: clock.offsetSeconds(),
    time_scale: clock.timeScale,
  });

  app.get("/clock", (c) => resourceResponse(c, clockResource()));

  app.post("/clock/advance", jsonBody(), async (c) => {
    const { seconds } = parseOrThrow(advanceSchema, c.get("body"));
    try {
      await advanceClock(seconds);
    } catch (error) {
      // Repeated advances must not carry dates past year 9999: the clock refuses, unmoved.
      if (error instanceof ClockRangeError) throw new ApiError("invalid_request", error.message, "seconds");
      throw error;
    }
    return resourceResponse(c, clockResource());
  });

  /** SPEC §12.2: deletes this company's activity; other companies, endpoints and keys stay. */
  app.post("/reset", jsonBody(), (c) => {
    parseOrThrow(resetSchema, c.get("body"));
    const deleted = resetSandbox(c.get("company").id);
    return resourceResponse(c, { object: "reset", deleted });
  });

  app.post("/payouts/:id/transition", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const row = payouts.get(company.id, c.req.param("id"));
      const input = parseOrThrow(transitionSchema, body);
      return { status: 200, resource: payouts.toResource(payouts.moveManually(work, row, input.to, input.amount)) };
    }));
  });

  /** The seed's test-event ingestion: stored (masked) as a received event, then delivered. */
  app.post("/webhook_ingest", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const input = parseOrThrow(ingestSchema, body);
      const objectId = typeof input.data.id === "string" ? input.data.id : null;
      const event = work.recordEvent({ companyId: company.id, type: input.type, objectId, data: input.data });
      return { status: 201, resource: eventResource(event), keepsRequestId: true };
    }));
  });

  return app;
}

// The dashboard's clock and payout buttons validate exactly as these calls do.
export { advanceSchema as clockAdvanceInput, transitionSchema as payoutTransitionInput };
