/**
 * What the CLI's calls answer, as types inferred from the API's own contracts (src/contracts/):
 * the CLI imports them as types only, so it still reaches the server through HTTP alone, and a
 * field the API renames breaks the CLI's build instead of printing "undefined".
 */
import type * as z from "zod";
import type { listEnvelopeSchema } from "../contracts/common.js";
import type { DeliveryView, EventResource, EventWithDeliveries } from "../contracts/events.js";
import type { FaultResource } from "../contracts/faults.js";
import type { CreatedInstanceResource, InstanceResource } from "../contracts/instances.js";
import type { coverageClearedSchema } from "../contracts/coverage.js";
import type { clockSchema, resetAnswerSchema } from "../contracts/sandbox.js";
import type { WebhookEndpointResource } from "../contracts/webhook-endpoints.js";

export type {
  DeliveryView as Delivery,
  EventResource,
  EventWithDeliveries,
  FaultResource as FaultRule,
  InstanceResource,
  CreatedInstanceResource,
  WebhookEndpointResource as Endpoint,
};

export type ClockResource = z.infer<typeof clockSchema>;
export type ResetResource = z.infer<typeof resetAnswerSchema>;
export type CoverageClearedResource = z.infer<typeof coverageClearedSchema>;

/** A list page around items of type `T`. */
export type ListPage<T> = Omit<z.infer<ReturnType<typeof listEnvelopeSchema>>, "data"> & { data: T[] };
