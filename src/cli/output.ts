import { writeSync } from "node:fs";
import { maskText } from "../domain/masking.js";

/** Where a command writes; tests and the live view may swap it. Every line is masked (docs/guarantees.md). */
export interface Output {
  line(text: string): void;
  error(text: string): void;
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
  line: (text) => {
    pending.push(`${maskText(text)}\n`);
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushLines);
    }
  },
  error: (text) => {
    flushLines(); // keep stdout and stderr in the order they were said
    process.stderr.write(`${maskText(text)}\n`);
  },
};
