import type { RequestLogged } from "../../bus.js";
import type { PaysimInstance } from "../../paysim.js";
import type { StoredEvent } from "../../store/repos/events.js";
import { VERSION } from "../../version.js";
import type { DeliveryUpdate } from "../../webhooks/dispatcher.js";
import type { Output } from "../output.js";
import { subscribe, type Reporter } from "./subscribe.js";

/**
 * NDJSON (--json): one object per line, `type` one of "started", "request",
 * "event", "delivery", for CI logs and tools. Times are ISO strings (an epoch
 * in ms has 13 digits and would be masked like a card number).
 */
export function startJsonReporter(instance: PaysimInstance, output: Output, options: { db: string }): Reporter {
  const emit = (value: object) => output.line(JSON.stringify(value));
  emit({
    type: "started",
    version: VERSION,
    url: instance.url,
    db: options.db,
    companies: instance.companies.map((c) => ({
      name: c.company.name,
      currency: c.company.currency,
      secret_key: c.secretKey ?? null,
      webhook_endpoints: c.endpoints.map((e) => ({ id: e.id, url: e.url, secret: e.secret })),
    })),
  });

  const onRequest = (r: RequestLogged) =>
    emit({ type: "request", request_id: r.requestId, method: r.method, path: r.path, status: r.status, duration_ms: Number(r.durationMs.toFixed(1)) });
  const onEvent = (e: StoredEvent) =>
    emit({ type: "event", id: e.id, event_type: e.type, object_id: e.object_id, company_id: e.company_id, request_id: e.request_id, created_at: e.created_at });
  const onDelivery = ({ delivery, eventType, attempt }: DeliveryUpdate) =>
    emit({
      type: "delivery",
      delivery_id: delivery.id,
      event_id: delivery.event_id,
      event_type: eventType,
      endpoint_id: delivery.endpoint_id,
      url: delivery.url,
      attempt: delivery.attempt_count,
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
      status: delivery.status,
      next_attempt_at: delivery.next_attempt_ms === null ? null : new Date(delivery.next_attempt_ms).toISOString(),
    });
  return subscribe(instance.bus, { request: onRequest, event: onEvent, delivery: onDelivery });
}
