import { newReference } from "../domain/ids.js";

/** A reference not yet used by the company (10 random characters: a clash is rare, but possible). */
export function uniqueReference(prefix: "PAY" | "POUT", taken: (reference: string) => boolean): string {
  for (;;) {
    const reference = newReference(prefix);
    if (!taken(reference)) return reference;
  }
}
