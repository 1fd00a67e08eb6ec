import { listEnvelopeSchema } from "../../contracts/common.js";
import { createPayoutInput, listPayoutsQuery, payoutAnswer, payoutSchema } from "../../contracts/payouts.js";
import { payoutTransitionInput } from "../../contracts/sandbox.js";
import { pageQuery } from "../list-query.js";
import { answering, EXAMPLE_PAYOUT, listing } from "./examples.js";
import { defineAction, defineChange, type CallContext } from "./define.js";

const PATH = "/v1/payouts";

/** The payout a call acts on: 404 before its body is read. */
const payoutOf = ({ deps, company, params }: CallContext) => deps.payouts.get(company.id, params.id!);

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
    change: ({ deps: { payouts }, work, company, body }) => ({ status: 201, resource: payouts.toResource(payouts.create(work, company, body)) }),
  }),
  defineAction({
    operationId: "listPayouts",
    method: "get",
    path: PATH,
    summary: "List payouts, newest first",
    query: listPayoutsQuery,
    answers: { 200: listEnvelopeSchema(payoutSchema) },
    example: { answer: listing([EXAMPLE_PAYOUT]) },
    act: ({ deps: { payouts }, company, query }) => {
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
    act: (call) => ({ resource: call.deps.payouts.toResource(payoutOf(call)) }),
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
  change: ({ deps: { payouts }, work, target, body }) => ({
    status: 200,
    resource: payouts.toResource(payouts.moveManually(work, target, body.to, body.amount)),
  }),
});
