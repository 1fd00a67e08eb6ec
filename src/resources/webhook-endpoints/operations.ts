import { listEnvelopeSchema, withRequestIdSchema } from "../../contracts/common.js";
import {
  createEndpointInput,
  deletedEndpointResource,
  deletedEndpointSchema,
  listWebhookEndpointsQuery,
  webhookEndpointAnswer,
  webhookEndpointSchema,
} from "./contract.js";
import { toEndpointResource } from "./service.js";
import { pageOfWhole } from "../../server/list-query.js";
import { answering, EXAMPLE_WEBHOOK_ENDPOINT, listing } from "../../server/operations/examples.js";
import { defineAction, defineChange, type CallContext } from "../../server/operations/define.js";

const PATH = "/v1/webhook_endpoints";

/** The endpoint a call acts on: 404 for an unknown id or another company's. */
const endpointOf = ({ deps, company, params }: CallContext) => deps.webhookEndpoints.get(company.id, params.id!);

export const createWebhookEndpoint = defineChange({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: PATH,
  summary: "Register a webhook endpoint",
  body: createEndpointInput,
  idempotencyKey: "optional",
  answers: { 201: webhookEndpointAnswer },
  example: { body: { url: "http://127.0.0.1:3000/webhooks", enabled_events: ["*"] }, answer: answering(EXAMPLE_WEBHOOK_ENDPOINT) },
  change: ({ deps, company, body }) => ({ status: 201, resource: deps.webhookEndpoints.create(company.id, body) }),
});

export const deleteWebhookEndpoint = defineAction({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: `${PATH}/:id`,
  summary: "Delete a webhook endpoint (its pending deliveries stop)",
  answers: { 200: withRequestIdSchema(deletedEndpointSchema) },
  example: { answer: answering({ id: EXAMPLE_WEBHOOK_ENDPOINT.id, object: "webhook_endpoint", deleted: true }) },
  target: endpointOf,
  act: ({ deps, target }) => {
    deps.webhookEndpoints.remove(target);
    return { resource: deletedEndpointResource(target.id) };
  },
});

/** /v1/webhook_endpoints: where a company's events are delivered (docs/webhooks.md). */
export const WEBHOOK_ENDPOINT_OPERATIONS = [
  createWebhookEndpoint,
  defineAction({
    operationId: "listWebhookEndpoints",
    method: "get",
    path: PATH,
    summary: "List the webhook endpoints",
    query: listWebhookEndpointsQuery,
    answers: { 200: listEnvelopeSchema(webhookEndpointSchema) },
    example: { answer: listing([EXAMPLE_WEBHOOK_ENDPOINT]) },
    act: ({ deps, company, query }) => pageOfWhole(deps.webhookEndpoints.list(company.id), query),
  }),
  defineAction({
    operationId: "getWebhookEndpoint",
    method: "get",
    path: `${PATH}/:id`,
    summary: "Read a webhook endpoint",
    answers: { 200: webhookEndpointAnswer },
    example: { answer: answering(EXAMPLE_WEBHOOK_ENDPOINT) },
    act: (call) => ({ resource: toEndpointResource(endpointOf(call)) }),
  }),
  deleteWebhookEndpoint,
];
