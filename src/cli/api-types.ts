/**
 * What the CLI's calls answer, as types read off the API's own operation definitions (a resource's
 * resources/<collection>/operations.ts, the sandbox's src/server/operations/; `AnswerOf`): the CLI imports them as types only, so it still reaches
 * the server through HTTP alone, and an answer the API changes breaks the CLI's build instead of
 * printing "undefined".
 */
import type { AnswerOf, ItemOf } from "../server/operations/define.js";
import type { coverageOperations } from "../server/operations/coverage.js";
import type { EVENT_OPERATIONS, resendEvent } from "../resources/events/operations.js";
import type { FAULT_OPERATIONS } from "../resources/faults/operations.js";
import type { INSTANCE_OPERATIONS } from "../resources/instances/operations.js";
import type { CLOCK_OPERATIONS, resetSandbox } from "../server/operations/sandbox.js";
import type { WEBHOOK_ENDPOINT_OPERATIONS } from "../resources/webhook-endpoints/operations.js";

type EventList = AnswerOf<typeof EVENT_OPERATIONS, "listEvents">;

/** A list page around items of type `T`. */
export type ListPage<T> = Omit<EventList, "data"> & { data: T[] };

export type EventResource = ItemOf<EventList>;
export type EventWithDeliveries = AnswerOf<typeof resendEvent>;
export type Delivery = EventWithDeliveries["deliveries"][number];
export type FaultRule = ItemOf<AnswerOf<typeof FAULT_OPERATIONS, "listFaultRules">>;
export type InstanceResource = ItemOf<AnswerOf<typeof INSTANCE_OPERATIONS, "listInstances">>;
export type CreatedInstanceResource = AnswerOf<typeof INSTANCE_OPERATIONS, "createInstance">;
export type Endpoint = ItemOf<AnswerOf<typeof WEBHOOK_ENDPOINT_OPERATIONS, "listWebhookEndpoints">>;
export type ClockResource = AnswerOf<typeof CLOCK_OPERATIONS, "getClock">;
export type ResetResource = AnswerOf<typeof resetSandbox>;
export type CoverageClearedResource = AnswerOf<ReturnType<typeof coverageOperations>, "clearCoverage">;
