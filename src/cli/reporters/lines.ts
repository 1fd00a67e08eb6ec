import { Chalk } from "chalk";
import type { RequestLogged } from "../../bus.js";
import type { PaysimInstance } from "../../paysim.js";
import type { StoredEvent } from "../../store/repos/events.js";
import { bannerFacts, bannerLines } from "../../ui/banner.js";
import { attemptText, gaveUp, requestDuration, retryLabel } from "../../ui/describe.js";
import type { DeliveryUpdate } from "../../webhooks/dispatcher.js";
import type { Output } from "../output.js";
import { subscribe, type Reporter } from "./subscribe.js";

export type { Reporter } from "./subscribe.js";

type Paint = (text: string, style: "green" | "yellow" | "red") => string;

/**
 * `POST /v1/payment_intents 201 12.3ms` — other tools and tests read this shape; keep it.
 *
 * @example
 * requestLine({ requestId: "req_1", method: "GET", path: "/v1/events", status: 200, durationMs: 1.25 }) // "GET /v1/events 200 1.3ms"
 */
export function requestLine(request: RequestLogged, paint: Paint = (text) => text): string {
  return `${request.method} ${request.path} ${paint(String(request.status), statusStyle(request.status))} ${requestDuration(request.durationMs)}`;
}

/** `event evt_… payment_intent.created pi_…` */
export function eventLine(event: StoredEvent): string {
  return `event ${event.id} ${event.type} ${event.object_id ?? "-"}`;
}

/** `delivery evt_… → http://… 500 12ms, retry 1/6 at 2026-…` / `…, delivered` / `…, gave up after 7 attempts` */
export function deliveryLine(update: DeliveryUpdate, paint: Paint = (text) => text): string {
  const { delivery, attempt } = update;
  const head = `delivery ${delivery.event_id} → ${delivery.url} ${attemptText(attempt)}`;
  if (delivery.status === "succeeded") return `${head}, ${paint("delivered", "green")}`;
  if (delivery.status === "failed") {
    return `${head}, ${gaveUp(delivery.attempt_count) ? paint(`gave up after ${delivery.attempt_count} attempts`, "red") : `stopped after ${delivery.attempt_count} attempts (endpoint deleted)`}`;
  }
  const at = delivery.next_attempt_ms === null ? "scheduled" : `at ${new Date(delivery.next_attempt_ms).toISOString()}`;
  return `${head}, ${paint(`${retryLabel(delivery.attempt_count)} ${at}`, "yellow")}`;
}

function statusStyle(status: number): "green" | "yellow" | "red" {
  return status < 400 ? "green" : status < 500 ? "yellow" : "red";
}

/**
 * Plain lines (outside a TTY or with --no-ui): the banner, then one line per
 * request, event and delivery attempt. Colour only on a TTY without NO_COLOR.
 */
export function startLinesReporter(instance: PaysimInstance, output: Output, options: { db: string; host: string; colour: boolean }): Reporter {
  const chalk = new Chalk({ level: options.colour ? 1 : 0 });
  const paint: Paint = options.colour ? (text, style) => chalk[style](text) : (text) => text;
  for (const line of bannerLines(bannerFacts(instance, options))) output.line(line);

  const onRequest = (request: RequestLogged) => output.line(requestLine(request, paint));
  const onEvent = (event: StoredEvent) => output.line(eventLine(event));
  const onDelivery = (update: DeliveryUpdate) => output.line(deliveryLine(update, paint));
  return subscribe(instance.bus, { request: onRequest, event: onEvent, delivery: onDelivery });
}
