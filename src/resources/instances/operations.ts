import { listEnvelopeSchema, withRequestIdSchema } from "../../contracts/common.js";
import { createdInstanceSchema, createInstanceSchema, deletedInstanceSchema, INSTANCE_CREDENTIALS, instanceSchema, listInstancesQuery } from "./contract.js";
import { pageOfWhole } from "../../server/list-query.js";
import { defineAction } from "../../server/operations/define.js";

const PATH = "/v1/sandbox/instances";

/** The instance the examples show. */
const EXAMPLE = {
  id: "ins_4bN0Qm1XcZr7TfW2LpYs9AdK",
  object: "instance",
  url: "http://127.0.0.1:53412",
  secret_key: "sk_test_worker_3",
  signing_secret: "whsec_worker_3",
  created_at: "2025-01-01T12:00:00.000Z",
} as const;
const EXAMPLE_REQUEST_ID = "req_7hTq2WbX9mKc4LrN0ZpYs3Ad";

/** /v1/sandbox/instances: whole paysims started by this one, one per test worker (docs/testing.md, "Instances"). */
export const INSTANCE_OPERATIONS = [
  defineAction({
    operationId: "createInstance",
    method: "post",
    path: PATH,
    summary: "Start another whole paysim in this process, on its own port, with its own in-memory data",
    body: createInstanceSchema,
    credentials: INSTANCE_CREDENTIALS,
    idempotencyKey: "required",
    ownErrors: ["instance_limit", "nested_instance", "shutting_down"],
    answers: { 201: withRequestIdSchema(createdInstanceSchema) },
    example: {
      body: {
        name: "Worker 3",
        currency: "EUR",
        secret_key: "sk_test_worker_3",
        forward_to: ["http://127.0.0.1:3000/webhooks"],
        webhook_secret: "whsec_worker_3",
        payouts: "manual",
      },
      answer: { ...EXAMPLE, dashboard_login_url: "http://127.0.0.1:53412/dashboard/login/4yQ0p7rTnV2xK9cB1mZsLw", request_id: EXAMPLE_REQUEST_ID },
    },
    // It takes an Idempotency-Key, so the idempotency layer has seen the call.
    act: ({ deps, request, body }) => ({ idempotent: deps.instances.create(request!, body) }),
    onStop: (deps) => deps.instances.refuseNew(),
  }),
  defineAction({
    operationId: "listInstances",
    method: "get",
    path: PATH,
    summary: "List the running instances this company started, oldest first",
    query: listInstancesQuery,
    answers: { 200: listEnvelopeSchema(instanceSchema) },
    example: { answer: { object: "list", data: [EXAMPLE], has_more: false, request_id: EXAMPLE_REQUEST_ID } },
    act: ({ deps, company, query }) => pageOfWhole(deps.instances.list(company.id), query),
  }),
  defineAction({
    operationId: "deleteInstance",
    method: "delete",
    path: `${PATH}/:id`,
    summary: "Stop an instance: its port closes and its data is gone",
    answers: { 200: withRequestIdSchema(deletedInstanceSchema) },
    example: { answer: { id: EXAMPLE.id, object: "instance", deleted: true, request_id: EXAMPLE_REQUEST_ID } },
    act: async ({ deps, company, params }) => ({ resource: await deps.instances.stop(company.id, params.id!) }),
  }),
];
