import { EventEmitter } from "node:events";
import { stripVTControlCharacters } from "node:util";

/**
 * A terminal for the live view's own door (renderLiveView): stdout records
 * everything written, stdin takes typed keys the way a raw-mode TTY delivers them.
 * Typed loosely because Ink only uses this part of the stream API.
 */
export function fakeTerminal(columns = 100, rows = 40) {
  let written = "";
  let writes = 0;
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns,
    rows,
    write(chunk: string) {
      written += chunk;
      writes++;
      return true;
    },
  });
  const stderr = Object.assign(new EventEmitter(), { write: () => true });
  let pending: string | null = null;
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setEncoding: () => undefined,
    setRawMode: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
    resume: () => undefined,
    pause: () => undefined,
    read() {
      const chunk = pending;
      pending = null;
      return chunk;
    },
    /** Types `keys` as one chunk. */
    type(keys: string) {
      pending = keys;
      stdin.emit("readable");
    },
  });
  return {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    type: (keys: string) => stdin.type(keys),
    /** Everything written so far, without escape sequences. */
    output: () => stripVTControlCharacters(written),
    /** Everything written so far, as written. */
    raw: () => written,
    /** How many writes so far. */
    writes: () => writes,
  };
}
