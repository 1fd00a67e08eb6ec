/**
 * Human-readable output of the CLI: aligned columns and label/value blocks.
 * Colour only on a terminal, not in CI, and only when NO_COLOR is not set (https://no-color.org):
 * see ui/terminal.ts.
 */
import { Chalk } from "chalk";
import { terminalText } from "../domain/terminal-text.js";
import { colourEnabled } from "../ui/terminal.js";

type Style = "dim" | "red" | "green" | "yellow" | "cyan";

const COLOURED = new Chalk({ level: 1 });

export function paint(text: string, style: Style, enabled = colourEnabled()): string {
  return enabled && text !== "" ? COLOURED[style](text) : text;
}

const STATUS_STYLES: Record<string, Style> = {
  succeeded: "green",
  captured: "green",
  failed: "red",
  canceled: "yellow",
  returned: "yellow",
  reversed: "yellow",
  partially_reversed: "yellow",
  created: "cyan",
  authorized: "cyan",
  pending: "cyan",
  processing: "cyan",
};

/** A state or status word, coloured by where it leaves the object: done, failed, undone, or on its way. */
export function paintStatus(status: string, enabled = colourEnabled()): string {
  const style = STATUS_STYLES[status];
  return style ? paint(status, style, enabled) : status;
}

/** A column may colour its cells; widths are measured before colouring so columns stay aligned. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  paint?: (text: string) => string;
}

/**
 * Rows as aligned columns with a header line. Each cell is escaped (docs/guarantees.md) before
 * it is measured and painted: a control in it can neither reach the terminal nor skew the columns.
 *
 * @example
 * table([{ id: "evt_1", type: "payout.created" }], [{ header: "ID", value: (r) => r.id }, { header: "TYPE", value: (r) => r.type }]);
 * // ID     TYPE
 * // evt_1  payout.created
 */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[], enabled = colourEnabled()): string[] {
  const cells = rows.map((row) => columns.map((column) => terminalText(column.value(row))));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((r) => r[i]!.length)));
  const lastIndex = columns.length - 1;
  const pad = (text: string, i: number) => (i === lastIndex ? text : text.padEnd(widths[i]!));
  const header = columns
    .map((column, i) => pad(column.header, i))
    .join("  ")
    .trimEnd();
  return [
    paint(header, "dim", enabled),
    ...cells.map((r) =>
      r
        .map((text, i) => {
          const padded = pad(text, i);
          const styler = columns[i]!.paint;
          return styler && enabled ? styler(text) + padded.slice(text.length) : padded;
        })
        .join("  ")
        .trimEnd(),
    ),
  ];
}

/**
 * A block of label/value lines with the values aligned. Each value is escaped (docs/guarantees.md),
 * then painted by its pair's own paint when it has one.
 *
 * @example
 * fields([["id", "po_1"], ["status", "succeeded", paintStatus]]);
 * // id      po_1
 * // status  succeeded
 */
export function fields(pairs: readonly (readonly [string, string, ((text: string) => string)?])[], indent = "", enabled = colourEnabled()): string[] {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value, styler]) => {
    const shown = terminalText(value);
    return `${indent}${paint(label.padEnd(width), "dim", enabled)}  ${styler && enabled ? styler(shown) : shown}`.trimEnd();
  });
}

/** A field of a loosely typed API object as display text, escaped (docs/guarantees.md): "—" when absent or null. */
export function text(value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  return terminalText(typeof value === "string" ? value : JSON.stringify(value));
}

/** An amount in minor units with its currency, e.g. "1000 EUR". */
export function money(amount: unknown, currency: unknown): string {
  return amount === undefined || amount === null ? "—" : `${text(amount)} ${text(currency)}`.trim();
}

/** Pretty JSON, for --json and for nested data. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
