import { EventEmitter } from "node:events";
import type { StoredEvent } from "./store/repos/events.js";
import type { DeliveryUpdate } from "./webhooks/dispatcher.js";

/** A finished API request, as the log and the live view show it. */
export interface RequestLogged {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export interface BusEvents {
  "request.logged": [RequestLogged];
  "event.created": [StoredEvent];
  "delivery.updated": [DeliveryUpdate];
}

/**
 * The typed in-process bus: the store's writers announce, the log, the live view
 * and the dispatcher listen. Nothing in the process reads its own HTTP API.
 */
export class Bus extends EventEmitter<BusEvents> {}
