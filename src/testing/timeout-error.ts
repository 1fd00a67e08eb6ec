/**
 * A wait (`events.waitFor`, `webhooks.waitFor`) ran out of time. Its message names the filter and
 * lists the last events or deliveries the instance had, so a failing test says what did happen.
 *
 * @example
 * try {
 *   await paysim.events.waitFor({ type: "payment_intent.captured" }, { timeout: 1000 });
 * } catch (error) {
 *   if (error instanceof PaysimTimeoutError) console.error(error.message);
 * }
 */
export class PaysimTimeoutError extends Error {
  override readonly name = "PaysimTimeoutError";

  constructor(message: string) {
    super(message);
  }
}
