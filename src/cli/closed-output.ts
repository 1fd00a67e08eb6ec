/**
 * A reader that goes away before paysim is done (`paysim events list | head -1`) ends paysim as it
 * ends any command piped into head: quietly, with the command's own status (0 when it succeeded).
 * Node.js ignores SIGPIPE, so without this the write fails with an unhandled EPIPE 'error' event
 * and a stack trace. A command that ends by itself just ends: its remaining lines have nowhere to go.
 */

/** What else to do once stdout or stderr has no reader; `paysim start`, which would serve on, stops. */
let onClosed: () => void = () => undefined;
let closed = false;
let watching = false;

/** Replaces what happens when the reader goes (by default nothing: the command ends by itself). */
export function whenOutputCloses(handler: () => void): void {
  onClosed = handler;
}

/** Watches stdout and stderr for a reader that went away; once per process. */
export function endQuietlyWhenOutputCloses(): void {
  if (watching) return;
  watching = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      // After the first EPIPE, every later write to the destroyed stream fails as well: already handled.
      if (closed) return;
      if (error.code !== "EPIPE") throw error;
      closed = true;
      onClosed();
    });
  }
}
