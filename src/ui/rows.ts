import chalk from "chalk";
import { escapeControls } from "../domain/terminal-text.js";
import { deliveryStateText, faultMark, requestDuration, requestStatus, resetText, statusTone, timeOfDay } from "./describe.js";
import type { DeliveryState } from "./delivery-state.js";
import type { EventView, Printed, RequestView } from "./model.js";
import type { SandboxReset } from "../bus.js";
import { padEndToWidth, truncateToWidth } from "./width.js";

/**
 * The live view's lines as rows of toned pieces of text: the one wording of each line, drawn by
 * Ink in the live region (`<RowText>`) and written as text above it (`rowText`) once finished.
 * Finished lines never go through Ink's layout: Ink would keep each one (its static output and
 * its text measurements) for as long as the process runs.
 */

export type ToneName = "good" | "bad" | "warn" | "info" | "muted" | "strong";

export interface Piece {
  text: string;
  tone?: ToneName;
}

export type Row = readonly Piece[];

/**
 * A line's time: HH:MM:SS, with the date before it when the line is of an earlier day than the
 * lines around it (`dated`).
 *
 * @example
 * lineTime("2026-05-01T19:24:00.000Z", false) // "19:24:00"
 * lineTime("2026-05-01T19:24:00.000Z", true)  // "2026-05-01 19:24:00"
 */
export function lineTime(at: string | number, dated: boolean): string {
  const iso = new Date(at).toISOString();
  return dated ? `${iso.slice(0, 10)} ${timeOfDay(iso)}` : timeOfDay(iso);
}

/** `12:00:01  POST /v1/payment_intents 201 12.3ms`, then the fault that hit it, if one did. */
export function requestRow(request: RequestView, dated = false): Row {
  return [
    { text: lineTime(request.at, dated), tone: "muted" },
    { text: "  " },
    { text: request.method, tone: "strong" },
    { text: ` ${request.path} ` },
    { text: requestStatus(request.status), tone: statusTone(request.status) },
    { text: " " },
    { text: requestDuration(request.durationMs), tone: "muted" },
    ...(request.fault ? [{ text: " " }, { text: faultMark(request.fault), tone: "bad" as const }] : []),
  ];
}

const MARKS: Record<DeliveryState["kind"], { mark: string; tone: ToneName }> = {
  sending: { mark: "…", tone: "info" },
  delivered: { mark: "✓", tone: "good" },
  failing: { mark: "↻", tone: "warn" },
  gave_up: { mark: "✗", tone: "bad" },
  stopped: { mark: "✗", tone: "muted" },
};

const INDENT = " ".repeat(10);

/**
 * An event (time, type, object id, id) and one row per endpoint: where its delivery stands at
 * `now`. `dated`: the event is of another day than the lines around it.
 */
export function eventRows(event: EventView, now: number, dated = false): Row[] {
  const states = event.deliveries.map((d) => deliveryStateText(d.state, now));
  const width = Math.max(0, ...states.map((s) => [...s].length));
  return [
    [
      { text: event.createdAt === null ? "--:--:--" : lineTime(event.createdAt, dated), tone: "muted" },
      { text: "  " },
      { text: padEndToWidth(escapeControls(event.type), 25), tone: "info" },
      { text: "  " },
      { text: event.objectId ?? "-" },
      { text: "  " },
      { text: event.id, tone: "muted" },
    ],
    ...event.deliveries.map((delivery, i): Row => {
      const { mark, tone } = MARKS[delivery.state.kind];
      return [{ text: INDENT }, { text: `${mark} ${padEndToWidth(states[i]!, width)}`, tone }, { text: "  → " }, { text: delivery.url }];
    }),
  ];
}

/** `12:00:01  sandbox reset (every company): 3 payment intents, 1 payout, 5 events deleted` */
export function resetRow(reset: SandboxReset, at: string, dated = false): Row {
  return [{ text: lineTime(at, dated), tone: "muted" }, { text: "  " }, { text: resetText(reset), tone: "warn" }];
}

/** Stands for finished lines a burst produced faster than a terminal can usefully show. */
export function skippedRow(events: number, requests: number): Row {
  return [{ text: `… ${events} events and ${requests} requests not shown (too many at once); \`paysim events list\` has the events`, tone: "warn" }];
}

/** Above the first line of a later day: the clock was advanced past midnight, or midnight passed. */
export function dayRow(day: string): Row {
  return [{ text: `── ${day} ──`, tone: "muted" }];
}

/** The banner: its first line strong, then a blank line under it. */
export function bannerRows(lines: readonly string[]): Row[] {
  const [first = "", ...rest] = lines;
  return [[{ text: first, tone: "strong" }], ...rest.map((line): Row => [{ text: line }]), []];
}

/** The rows of a finished line. */
export function printedRows(line: Printed, now: number): Row[] {
  switch (line.kind) {
    case "request":
      return [requestRow(line.request, line.dated)];
    case "event":
      return eventRows(line.event, now, line.dated);
    case "skipped":
      return [skippedRow(line.events, line.requests)];
    case "reset":
      return [resetRow(line.reset, line.at, line.dated)];
    case "day":
      return [dayRow(line.day)];
  }
}

/** What each tone looks like; the live region's `<Tone>` uses the same. */
export const TONE_STYLES: Record<ToneName, { color?: "green" | "red" | "yellow" | "cyan"; dimColor?: boolean; bold?: boolean }> = {
  good: { color: "green" },
  bad: { color: "red" },
  warn: { color: "yellow" },
  info: { color: "cyan" },
  muted: { dimColor: true },
  strong: { bold: true },
};

function styled(text: string, tone: ToneName | undefined): string {
  if (tone === undefined) return text;
  const style = TONE_STYLES[tone];
  let paint = chalk;
  if (style.color) paint = paint[style.color];
  if (style.dimColor) paint = paint.dim;
  if (style.bold) paint = paint.bold;
  return paint(text);
}

/**
 * A piece's text as the terminal gets it, escaped (docs/guarantees.md): a request's path, an
 * event's type or a receiver's URL come from outside. The pieces were masked as the model took them.
 */
export function shownText(piece: Piece): string {
  return escapeControls(piece.text);
}

/**
 * A row as a terminal line: cut to `columns` display columns (ending in "…", as the live region's
 * lines are cut), painted when `colour`.
 *
 * @example
 * rowText([{ text: "12:00:00", tone: "muted" }, { text: "  GET /v1/events 200" }], { columns: 14, colour: false })
 * // "12:00:00  GET…"
 */
export function rowText(row: Row, options: { columns: number; colour: boolean }): string {
  const texts = row.map(shownText);
  const cut = truncateToWidth(texts.join(""), options.columns);
  if (!options.colour) return cut;
  // Paint the cut line piece by piece: each piece keeps what of it survived the cut.
  let rest = cut;
  let out = "";
  for (const [i, piece] of row.entries()) {
    if (rest === "") break;
    const text = texts[i]!;
    const kept = rest.startsWith(text) ? text : rest;
    out += styled(kept, piece.tone);
    rest = rest.slice(kept.length);
  }
  return out;
}
