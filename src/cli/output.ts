import { writeSync } from "node:fs";
import { maskText, maskTextKeeping } from "../domain/masking.js";
import { isCredential } from "../domain/secret-keys.js";
import { escapeControls, holdsControls } from "../domain/terminal-text.js";
import { colourEnabled } from "../ui/terminal.js";

/**
 * Where a command writes; tests and the live view may swap it. Every line is masked, then escaped
 * (docs/guarantees.md): `line` may be a block of lines (pretty JSON), `error` is one line. The
 * `credentials` a line hands back to their owner (a key, a signing secret, as `paysim env`
 * prints them) are printed exactly, never digit-masked; an error line holds none.
 */
export interface Output {
  line(text: string, credentials?: readonly string[]): void;
  error(text: string): void;
}

/** What a line written to stdout keeps unescaped: its line breaks, and the colours paysim's own styles paint when colour is on (chalk's SGR codes). */
const LINE_BREAKS = /(\n)/;
// eslint-disable-next-line no-control-regex -- ESC opens the colour codes kept
const LINE_BREAKS_AND_STYLES = /(\n|\u001b\[(?:1|2|22|3[1236]|39)m)/;

/**
 * `text` as it may reach a terminal: masked (each of `credentials` kept as it is, in the forms a
 * JSON string and a single-quoted shell word write it), then every control escaped but the parts
 * `kept` captures. The format helpers and the log-line builders have escaped what they put in a
 * line (a line break and a colour code included): this is the net under everything else.
 */
export function writable(text: string, kept?: () => RegExp, credentials: readonly string[] = []): string {
  // Only what is a credential by its own format is kept, in each form it is printed in.
  const masked = credentials.length === 0 ? maskText(text) : maskTextKeeping(text, credentials.filter(isCredential).flatMap(printedForms));
  if (!holdsControls(masked)) return masked;
  if (kept === undefined) return escapeControls(masked);
  return masked
    .split(kept())
    .map((part, i) => (i % 2 === 1 ? part : escapeControls(part)))
    .join("");
}

/** A credential as the lines that print one write it: as it is, inside a JSON string, inside a single-quoted shell word. */
function printedForms(credential: string): string[] {
  return [credential, JSON.stringify(credential).slice(1, -1), credential.replaceAll("'", "'\\''")];
}

/** Asked only of a line that holds a control: whether stdout takes colour does not change while paysim runs. */
let stdoutKept: RegExp | undefined;
const keptOnStdout = (): RegExp => (stdoutKept ??= colourEnabled(process.stdout) ? LINE_BREAKS_AND_STYLES : LINE_BREAKS);

/** An internal error with its stack: one error line per line of the stack, as an error line holds no line break. */
export function reportInternalError(output: Output, what: string, error: unknown): void {
  const described = (error as Error | undefined)?.stack ?? String(error);
  for (const line of `paysim: ${what}: ${described}`.split("\n")) output.error(line);
}

/**
 * Lines written in one event-loop turn go out in one write: a write to a pipe
 * or file is a synchronous syscall on Linux, and one per request line cost
 * more than some requests. Whatever is still pending at exit is written then.
 */
let pending: string[] = [];
let flushQueued = false;

function flushLines(): void {
  flushQueued = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stdout.write(text);
}

process.on("exit", () => {
  if (pending.length > 0) {
    try {
      writeSync(1, pending.join(""));
    } catch {
      // stdout is gone: nothing left to tell
    }
  }
});

export const consoleOutput: Output = {
  line: (text, credentials) => {
    pending.push(`${writable(text, keptOnStdout, credentials)}\n`);
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushLines);
    }
  },
  error: (text) => {
    flushLines(); // keep stdout and stderr in the order they were said
    process.stderr.write(`${writable(text)}\n`);
  },
};
