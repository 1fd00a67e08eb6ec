import { listEnvelopeSchema, noBody } from "../../contracts/common.js";
import { eventSchema, eventWithDeliveriesSchema, ingestInput, listEventsQuery } from "./contract.js";
import { eventResource } from "./service.js";
import { pageQuery } from "../../server/list-query.js";
import { EXAMPLE_DELIVERY, EXAMPLE_EVENT, listing } from "../../server/operations/examples.js";
import { defineAction, defineChange, type CallContext } from "../../server/operations/define.js";

const PATH = "/v1/events";

/** An event as a read shows it: its own request id (the request that caused it), and its deliveries. */
const WITH_DELIVERIES = { ...EXAMPLE_EVENT, deliveries: [EXAMPLE_DELIVERY] };

/** The event a call acts on: 404 before its body is read. */
const eventOf = ({ deps, company, params }: CallContext) => deps.events.get(company.id, params.id!);

/** A new delivery to every endpoint listening now, whatever happened to the earlier ones; the dashboard's Resend button makes this call. */
export const resendEvent = defineChange({
  operationId: "resendEvent",
  method: "post",
  path: `${PATH}/:id/resend`,
  summary: "Deliver an event again to every endpoint listening now",
  body: noBody,
  idempotencyKey: "optional",
  answers: { 200: eventWithDeliveriesSchema },
  example: { body: {}, answer: WITH_DELIVERIES },
  target: eventOf,
  change: ({ deps: { events }, target }) => {
    events.resend(target);
    return { status: 200, resource: events.withDeliveries(target), keepsRequestId: true };
  },
});

/**
 * /v1/events (docs/webhooks.md). An event's own `request_id` is the request that caused
 * it, so a read answers with that one in the body; the `Request-Id` header names the read.
 */
export const EVENT_OPERATIONS = [
  defineAction({
    operationId: "listEvents",
    method: "get",
    path: PATH,
    summary: "List events, newest first",
    query: listEventsQuery,
    answers: { 200: listEnvelopeSchema(eventSchema) },
    example: { answer: listing([EXAMPLE_EVENT]) },
    act: ({ deps: { events }, company, query }) => {
      const page = events.list(company.id, pageQuery(query, "type", company.id, events.seqOf));
      return { list: page.json, hasMore: page.hasMore };
    },
  }),
  defineAction({
    operationId: "getEvent",
    method: "get",
    path: `${PATH}/:id`,
    summary: "Read an event with its deliveries and their attempts",
    answers: { 200: eventWithDeliveriesSchema },
    example: { answer: WITH_DELIVERIES },
    act: (call) => ({ resource: call.deps.events.withDeliveries(eventOf(call)), keepsRequestId: true }),
  }),
  resendEvent,
];

/** The seed's test-event ingestion: stored (masked) as a received event, then delivered. */
export const ingestWebhookEvent = defineChange({
  operationId: "ingestWebhookEvent",
  method: "post",
  path: "/v1/sandbox/webhook_ingest",
  summary: "Record a test event and deliver it to the company's endpoints",
  body: ingestInput,
  idempotencyKey: "optional",
  answers: { 201: eventSchema },
  example: {
    body: { type: "payout.succeeded", data: { reference: "POUT-3LOC4WVLB2", amount: 5000, currency: "EUR" } },
    answer: { ...EXAMPLE_EVENT, type: "payout.succeeded", data: { reference: "POUT-3LOC4WVLB2", amount: 5000, currency: "EUR" } },
  },
  change: ({ work, company, body }) => {
    const objectId = typeof body.data.id === "string" ? body.data.id : null;
    const event = work.recordEvent({ companyId: company.id, type: body.type, objectId, data: body.data });
    return { status: 201, resource: eventResource(event), keepsRequestId: true };
  },
});
