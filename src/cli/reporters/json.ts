import type { Bus, DeliveryAttempted, EventCreated, RequestLogged, SandboxReset } from "../../bus.js";
import { VERSION } from "../../version.js";
import type { Output } from "../output.js";
import { credentialsOf, subscribe, type Reporter, type StartedInstance } from "./subscribe.js";

/**
 * NDJSON (--json): one object per line, `type` one of "started", "request",
 * "event", "delivery", "reset", for CI logs and tools. Times are ISO strings (an epoch
 * in ms has 13 digits and would be masked like a card number). Starts listening now;
 * prints nothing until `started()` (see `subscribe`).
 */
export function startJsonReporter(bus: Bus, output: Output, options: { db: string }): Reporter {
  const emit = (value: object, credentials?: readonly string[]) => output.line(JSON.stringify(value), credentials);
  // The started line hands the keys and secrets back to their owner: printed exactly (docs/guarantees.md).
  const onStarted = (instance: StartedInstance) =>
    emit(
      {
        type: "started",
        version: VERSION,
        url: instance.url,
        db: options.db,
        dashboard_login_url: instance.dashboardLoginUrl?.() ?? null,
        companies: instance.companies.map((c) => ({
          name: c.company.name,
          currency: c.company.currency,
          secret_key: c.secretKey ?? null,
          webhook_endpoints: c.endpoints.map((e) => ({ id: e.id, url: e.url, secret: e.secret })),
        })),
      },
      credentialsOf(instance),
    );

  const onRequest = (r: RequestLogged) =>
    emit({
      type: "request",
      request_id: r.requestId,
      method: r.method,
      path: r.path,
      status: r.status,
      duration_ms: Number(r.durationMs.toFixed(1)),
      // Only on a request a fault rule hit (docs/faults.md); `status` is then 0 when none was made.
      ...(r.fault && { fault: { rule_id: r.fault.ruleId, fault: r.fault.fault, unanswered: r.fault.unanswered } }),
    });
  const onEvent = (e: EventCreated) =>
    emit({ type: "event", id: e.id, event_type: e.type, object_id: e.objectId, company_id: e.companyId, request_id: e.requestId, created_at: e.createdAt });
  const onDelivery = (d: DeliveryAttempted) =>
    emit({
      type: "delivery",
      delivery_id: d.deliveryId,
      event_id: d.eventId,
      event_type: d.eventType,
      endpoint_id: d.endpointId,
      url: d.url,
      attempt: d.attempts,
      status_code: d.attempt.statusCode,
      error: d.attempt.error,
      duration_ms: d.attempt.durationMs,
      chaos: d.attempt.chaos ?? null,
      status: d.status,
      next_attempt_at: d.nextAttemptMs === null ? null : new Date(d.nextAttemptMs).toISOString(),
    });
  const onReset = (r: SandboxReset) => emit({ type: "reset", company_id: r.companyId, deleted: r.deleted });
  return subscribe(bus, { started: onStarted, request: onRequest, event: onEvent, delivery: onDelivery, reset: onReset });
}
