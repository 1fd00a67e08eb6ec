import { listEnvelopeSchema } from "../../contracts/common.js";
import { createPayoutInput, listPayoutsQuery, payoutAnswer, payoutSchema } from "./contract.js";
import { payoutTransitionInput } from "../../contracts/sandbox.js";
import { pageQuery } from "../../server/list-query.js";
import { answering, EXAMPLE_PAYOUT, listing } from "../../server/operations/examples.js";
import { defineAction, defineChange, type CallContext } from "../../server/operations/define.js";
import { serviceOf } from "../../server/operations/served-module.js";
import { payout } from "./resource.js";
import type { PayoutService } from "./service.js";

const PATH = "/v1/payouts";

/** The payout a call acts on: 404 before its body is read. */
const payoutOf = (call: CallContext) => payoutService(call).get(call.company.id, call.params.id!);

/** The payouts' service (service.ts), which the wiring makes from this folder's module. */
export const payoutService = serviceOf<PayoutService>(payout);

/** /v1/payouts: create, read, list (docs/api.md), and the sandbox's drawn moves (docs/testing.md). */
export const PAYOUT_OPERATIONS = [
  defineChange({
    operationId: "createPayout",
    method: "post",
    path: PATH,
    summary: "Create a payout",
    body: createPayoutInput,
    idempotencyKey: "required",
    answers: { 201: payoutAnswer },
    example: { body: { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }, answer: answering(EXAMPLE_PAYOUT) },
    change: (call) => {
      const payouts = payoutService(call);
      return { status: 201, resource: payouts.toResource(payouts.create(call.work, call.company, call.body)) };
    },
  }),
  defineAction({
    operationId: "listPayouts",
    method: "get",
    path: PATH,
    summary: "List payouts, newest first",
    query: listPayoutsQuery,
    answers: { 200: listEnvelopeSchema(payoutSchema) },
    example: { answer: listing([EXAMPLE_PAYOUT]) },
    act: ({ deps, company, query }) => {
      const payouts = payoutService({ deps });
      const page = payouts.list(company.id, pageQuery(query, "status", company.id, payouts.seqOf));
      return { list: page.json, hasMore: page.hasMore };
    },
  }),
  defineAction({
    operationId: "getPayout",
    method: "get",
    path: `${PATH}/:id`,
    summary: "Read a payout",
    answers: { 200: payoutAnswer },
    example: { answer: answering(EXAMPLE_PAYOUT) },
    act: (call) => ({ resource: payoutService(call).toResource(payoutOf(call)) }),
  }),
];

/** `POST /v1/sandbox/payouts/:id/transition`: one drawn move of a payout; the dashboard's move buttons make this call. */
export const transitionPayout = defineChange({
  operationId: "transitionPayout",
  method: "post",
  path: "/v1/sandbox/payouts/:id/transition",
  summary: "Make one drawn move of a payout",
  body: payoutTransitionInput,
  idempotencyKey: "optional",
  answers: { 200: payoutAnswer },
  example: { body: { to: "processing" }, answer: answering({ ...EXAMPLE_PAYOUT, status: "processing" }) },
  target: payoutOf,
  change: (call) => {
    const payouts = payoutService(call);
    return { status: 200, resource: payouts.toResource(payouts.moveManually(call.work, call.target, call.body.to, call.body.amount)) };
  },
});
