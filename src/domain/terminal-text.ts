/**
 * Text on its way to a terminal (docs/guarantees.md "Nothing you did not write reaches your
 * terminal as a control"). A request's path, a receiver's answer, a company's name come from
 * anyone: written raw, ESC and its sequences would set the terminal's title, clear the screen,
 * plant links or write the clipboard, CR and LF would forge whole log lines, and a bidirectional
 * override would show text in another order than it is.
 */
import { maskText } from "./masking.js";

/**
 * What is escaped: C0 (TAB, LF, CR and ESC among them), DEL, C1, the bidirectional marks,
 * embeddings, overrides and isolates, and the line and paragraph separators.
 */
// Matching control characters is this module's whole job.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/** Whether `text` holds a character escapeControls writes otherwise: the cheap test done before any work. */
export function holdsControls(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * `text` with each control and bidirectional character written as `\u` and its four hex digits
 * (lowercase), the form a JSON string uses: ESC is `\u001b`, RLO is `\u202e`. A backslash is
 * kept as it is, so escaping escaped text changes nothing, and text that already reads `\u001b`
 * looks the same as an escaped ESC (docs/guarantees.md says so).
 *
 * @example
 * escapeControls("/v1/\u001b]0;PWNED\u0007") // "/v1/\\u001b]0;PWNED\\u0007"
 * escapeControls("plain text")               // "plain text" (the same string: nothing is copied)
 */
export function escapeControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Outside text as a terminal may show it: card numbers masked first, then escaped. Masking
 * reads a TAB or a bidirectional mark between digit groups as a separator; escaped first, the
 * `\u0009` between the groups would hide the card number from it.
 *
 * @example
 * terminalText("4242\t4242\t4242\t4242") // "****\\u0009****\\u0009****\\u00094242"
 */
export function terminalText(text: string): string {
  return CONTROL.test(text) ? escapeControls(maskText(text)) : text;
}
