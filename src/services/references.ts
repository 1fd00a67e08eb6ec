/**
 * A reference not yet used by the company: `draw` makes one (its random
 * characters can clash within a second), and it draws again until `taken` says no.
 *
 * @example
 * uniqueReference(() => ids.newReference("PAY", clock.now()), (ref) => store.paymentIntents.referenceTaken(companyId, ref))
 */
export function uniqueReference(draw: () => string, taken: (reference: string) => boolean): string {
  for (;;) {
    const reference = draw();
    if (!taken(reference)) return reference;
  }
}
