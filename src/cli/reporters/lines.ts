import { Chalk } from "chalk";
import type { Bus, DeliveryAttempted, EventCreated, RequestLogged, SandboxReset } from "../../bus.js";
import { terminalText } from "../../domain/terminal-text.js";
import { bannerCredentials, bannerLines } from "../../ui/banner.js";
import { bannerFacts } from "../banner-facts.js";
import { deliveryStateOf } from "../../ui/delivery-state.js";
import { attemptText, deliveryLogText, faultMark, requestDuration, requestStatus, resetText, statusTone, type StatusTone } from "../../ui/describe.js";
import type { Output } from "../output.js";
import { subscribe, type Reporter, type StartedInstance } from "./subscribe.js";

type Paint = (text: string, style: "green" | "yellow" | "red") => string;

/**
 * `POST /v1/payment_intents 201 12.3ms` — other tools and tests read this shape; keep it. A
 * request a fault rule hit ends with the fault: `… 201 3.1ms fault lost_response flt_…, no answer sent`.
 * What came from outside (the path, a receiver's URL and error) is escaped (docs/guarantees.md)
 * before the line is painted: `/v1/%1B]0;x%07` is logged as `/v1/\u001b]0;x\u0007`.
 *
 * @example
 * requestLine({ requestId: "req_1", method: "GET", path: "/v1/events", status: 200, durationMs: 1.25 }) // "GET /v1/events 200 1.3ms"
 */
export function requestLine(request: RequestLogged, paint: Paint = (text) => text): string {
  const line = `${request.method} ${terminalText(request.path)} ${paint(requestStatus(request.status), TONE_COLOURS[statusTone(request.status)])} ${requestDuration(request.durationMs)}`;
  return request.fault ? `${line} ${paint(faultMark(request.fault), "red")}` : line;
}

/** `event evt_… payment_intent.created pi_…` */
export function eventLine(event: Pick<EventCreated, "id" | "type" | "objectId">): string {
  return terminalText(`event ${event.id} ${event.type} ${event.objectId ?? "-"}`);
}

/** `delivery evt_… → http://… 500 12ms, retry 1/6 at 2026-…` / `…, delivered` / `…, gave up after 7 attempts` */
export function deliveryLine(update: DeliveryAttempted, paint: Paint = (text) => text): string {
  const { text, tone } = deliveryLogText(deliveryStateOf({ ...update, last: update.attempt }));
  return `${terminalText(`delivery ${update.eventId} → ${update.url} ${attemptText(update.attempt)}`)}, ${tone === undefined ? text : paint(text, TONE_COLOURS[tone])}`;
}

const TONE_COLOURS: Record<StatusTone, "green" | "yellow" | "red"> = { good: "green", warn: "yellow", bad: "red" };

/**
 * Plain lines (outside a TTY or with --no-ui): the banner, then one line per
 * request, event, delivery attempt and sandbox reset. Colour only on a TTY without NO_COLOR.
 * Starts listening now; prints nothing until `started()` (see `subscribe`).
 */
export function startLinesReporter(bus: Bus, output: Output, options: { db: string; host: string; colour: boolean }): Reporter {
  const chalk = new Chalk({ level: options.colour ? 1 : 0 });
  const paint: Paint = options.colour ? (text, style) => chalk[style](text) : (text) => text;
  const onStarted = (instance: StartedInstance) => {
    const facts = bannerFacts(instance, options);
    const credentials = bannerCredentials(facts);
    for (const line of bannerLines(facts)) output.line(line, credentials);
  };

  const onRequest = (request: RequestLogged) => output.line(requestLine(request, paint));
  const onEvent = (event: EventCreated) => output.line(eventLine(event));
  const onDelivery = (update: DeliveryAttempted) => output.line(deliveryLine(update, paint));
  const onReset = (reset: SandboxReset) => output.line(terminalText(resetText(reset)));
  return subscribe(bus, { started: onStarted, request: onRequest, event: onEvent, delivery: onDelivery, reset: onReset });
}
