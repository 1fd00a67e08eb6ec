import { describe, expectTypeOf, it } from "vitest";
import { withRequestIdSchema } from "../../src/contracts/common.js";
import { eventSchema, type EventResource } from "../../src/resources/events/contract.js";
import { faultsClearedSchema, type FaultRuleResource } from "../../src/resources/faults/contract.js";
import { payoutAnswer, type PayoutResource } from "../../src/resources/payouts/contract.js";
import type { WebhookEndpointResource } from "../../src/resources/webhook-endpoints/contract.js";
import { defineAction, defineChange } from "../../src/server/operations/define.js";
import { EXAMPLE_PAYOUT } from "../../src/server/operations/examples.js";
import { invoke, type Caller } from "../../src/server/operations/invoke.js";
import { transitionPayout } from "../../src/resources/payouts/operations.js";
import { addFaultRule, clearFaultRules } from "../../src/resources/faults/operations.js";
import { WAIT_OPERATIONS } from "../../src/server/operations/waits.js";
import { createWebhookEndpoint } from "../../src/resources/webhook-endpoints/operations.js";

/** Only the types of what the calls below answer are read: none of them runs. */
declare const caller: Caller;
const answers = {
  cleared: () => invoke(clearFaultRules, caller),
  added: () => invoke(addFaultRule, caller),
  endpoint: () => invoke(createWebhookEndpoint, caller),
  moved: () => invoke(transitionPayout, caller, { params: { id: "po_1" } }),
};

/** An event as a change that keeps its own request_id would wrongly return it: without one. */
declare const eventWithoutRequestId: Omit<EventResource, "request_id">;

/** What every definition below has besides its answers. */
const THING = { operationId: "thing", method: "post", path: "/v1/things", summary: "A thing" } as const;

describe("an operation's definition types what it answers (checked by the type checker)", () => {
  it("invoke() answers the resource of the operation's answer schema, without the request_id the response adds", () => {
    expectTypeOf(answers.cleared).returns.resolves.toEqualTypeOf<{ object: "faults_cleared"; deleted: number }>();
    expectTypeOf(answers.added).returns.resolves.toEqualTypeOf<FaultRuleResource>();
    expectTypeOf(answers.endpoint).returns.resolves.toEqualTypeOf<WebhookEndpointResource>();
    expectTypeOf(answers.moved).returns.resolves.toEqualTypeOf<PayoutResource>();
  });

  it("a change or an action that returns a resource of another shape than its answers does not compile", () => {
    defineChange({
      ...THING,
      answers: { 201: payoutAnswer },
      change: () => ({ status: 201, resource: EXAMPLE_PAYOUT }),
    });
    defineChange({
      ...THING,
      answers: { 201: payoutAnswer },
      // @ts-expect-error: a payout without its reference is not what the answer promises
      change: () => ({ status: 201, resource: { ...EXAMPLE_PAYOUT, reference: undefined } }),
    });
    defineChange({
      ...THING,
      answers: { 201: payoutAnswer },
      // @ts-expect-error: a status its answers do not declare
      change: () => ({ status: 200, resource: EXAMPLE_PAYOUT }),
    });
    defineAction({
      ...THING,
      answers: { 200: withRequestIdSchema(faultsClearedSchema) },
      // @ts-expect-error: `deleted` is a count, not a text
      act: () => ({ resource: { object: "faults_cleared" as const, deleted: "1" } }),
    });
    defineAction({
      ...THING,
      answers: { 200: withRequestIdSchema(faultsClearedSchema) },
      // @ts-expect-error: only an operation that answers a list envelope answers a page of one
      act: () => ({ list: [], hasMore: false }),
    });
    defineChange({
      ...THING,
      answers: { 201: eventSchema },
      // @ts-expect-error: an answer that keeps its own request_id must carry one
      change: () => ({ status: 201, resource: eventWithoutRequestId, keepsRequestId: true }),
    });
  });

  it("an operation that holds its request has no dashboard action", () => {
    // @ts-expect-error: a wait answers its connection itself
    const held = () => invoke(WAIT_OPERATIONS[0]!, caller);
    expectTypeOf(held).toBeFunction();
  });
});
