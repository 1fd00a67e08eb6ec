import { newReference } from "../domain/ids.js";

/** A reference not yet used by the company (its 4 random characters can clash within a second: it draws again). */
export function uniqueReference(prefix: "PAY" | "POUT", nowMs: number, taken: (reference: string) => boolean): string {
  for (;;) {
    const reference = newReference(prefix, nowMs);
    if (!taken(reference)) return reference;
  }
}
