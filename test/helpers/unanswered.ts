import { connect } from "node:net";

/** What came back on a connection before it closed. */
export interface Exchange {
  /** Every byte the server sent. */
  received: Buffer;
  /** The socket error that ended it, if any (a reset rather than a clean close). */
  error: string | undefined;
}

/**
 * Sends `request` on a fresh connection and resolves once the connection closes, with whatever
 * the server sent (nothing at all, when a fault closed it with no answer).
 */
export function exchange(port: number, request: Buffer): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
    socket.on("close", () => resolve({ received: Buffer.concat(chunks), error }));
    socket.write(request);
  });
}

/**
 * Resolves once `condition` holds, checking again every few milliseconds: for a fact only
 * observable from outside (a request reached the server), with no event to wait for.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
