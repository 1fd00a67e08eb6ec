import {
  authorizeInput,
  cancelInput,
  captureInput,
  createPaymentIntentInput,
  listPaymentIntentsQuery,
  paymentIntentAnswer,
  paymentIntentSchema,
} from "./contract.js";
import { listEnvelopeSchema } from "../../contracts/common.js";
import { pageQuery } from "../../server/list-query.js";
import { answering, EXAMPLE_CAPTURED_PAYMENT_INTENT, EXAMPLE_PAYMENT_INTENT, listing } from "../../server/operations/examples.js";
import { defineAction, defineChange, type CallContext } from "../../server/operations/define.js";
import { serviceOf } from "../../server/operations/served-module.js";
import { paymentIntent } from "./resource.js";
import type { PaymentIntentService } from "./service.js";

const PATH = "/v1/payment_intents";

/** The payment intent a transition acts on: 404 before its body is read. */
const intentOf = (call: CallContext) => paymentIntentService(call).get(call.company.id, call.params.id!);

/** The payment intents' service (service.ts), which the wiring makes from this folder's module. */
export const paymentIntentService = serviceOf<PaymentIntentService>(paymentIntent);

/** /v1/payment_intents: create, read, list, authorize, capture, cancel (docs/api.md). */
export const PAYMENT_INTENT_OPERATIONS = [
  defineChange({
    operationId: "createPaymentIntent",
    method: "post",
    path: PATH,
    summary: "Create a payment intent",
    body: createPaymentIntentInput,
    idempotencyKey: "required",
    answers: { 201: paymentIntentAnswer },
    example: { body: { amount: 4200, currency: "EUR", description: "Order 42" }, answer: answering(EXAMPLE_PAYMENT_INTENT) },
    change: ({ deps, work, company, body }) => {
      const paymentIntents = paymentIntentService({ deps });
      return { status: 201, resource: paymentIntents.toResource(paymentIntents.create(work, company, body)) };
    },
  }),
  defineAction({
    operationId: "listPaymentIntents",
    method: "get",
    path: PATH,
    summary: "List payment intents, newest first",
    query: listPaymentIntentsQuery,
    answers: { 200: listEnvelopeSchema(paymentIntentSchema) },
    example: { answer: listing([EXAMPLE_PAYMENT_INTENT]) },
    act: ({ deps, company, query }) => {
      const paymentIntents = paymentIntentService({ deps });
      const page = paymentIntents.list(company.id, pageQuery(query, "state", company.id, paymentIntents.seqOf));
      return { list: page.json, hasMore: page.hasMore };
    },
  }),
  defineAction({
    operationId: "getPaymentIntent",
    method: "get",
    path: `${PATH}/:id`,
    summary: "Read a payment intent",
    answers: { 200: paymentIntentAnswer },
    example: { answer: answering(EXAMPLE_PAYMENT_INTENT) },
    act: (call) => ({ resource: paymentIntentService(call).toResource(intentOf(call)) }),
  }),
  defineChange({
    operationId: "authorizePaymentIntent",
    method: "post",
    path: `${PATH}/:id/authorize`,
    summary: "Authorize a payment intent",
    body: authorizeInput,
    idempotencyKey: "optional",
    answers: { 200: paymentIntentAnswer },
    example: { body: { payment_method: "pm_card_visa" }, answer: answering(EXAMPLE_CAPTURED_PAYMENT_INTENT) },
    target: intentOf,
    change: ({ deps, work, target, body }) => {
      const paymentIntents = paymentIntentService({ deps });
      const card = paymentIntents.cardForPaymentMethod(body.payment_method ?? "pm_card_visa");
      return { status: 200, resource: paymentIntents.toResource(paymentIntents.authorize(work, target, card)) };
    },
  }),
  defineChange({
    operationId: "capturePaymentIntent",
    method: "post",
    path: `${PATH}/:id/capture`,
    summary: "Capture a payment intent",
    body: captureInput,
    idempotencyKey: "optional",
    answers: { 200: paymentIntentAnswer },
    example: { body: {}, answer: answering(EXAMPLE_CAPTURED_PAYMENT_INTENT) },
    target: intentOf,
    change: ({ deps, work, target }) => {
      const paymentIntents = paymentIntentService({ deps });
      return { status: 200, resource: paymentIntents.toResource(paymentIntents.capture(work, target)) };
    },
  }),
  defineChange({
    operationId: "cancelPaymentIntent",
    method: "post",
    path: `${PATH}/:id/cancel`,
    summary: "Cancel a payment intent",
    body: cancelInput,
    idempotencyKey: "optional",
    answers: { 200: paymentIntentAnswer },
    example: { body: {}, answer: answering({ ...EXAMPLE_PAYMENT_INTENT, state: "canceled" }) },
    target: intentOf,
    change: ({ deps, work, target }) => {
      const paymentIntents = paymentIntentService({ deps });
      return { status: 200, resource: paymentIntents.toResource(paymentIntents.cancel(work, target)) };
    },
  }),
];
