/**
 * The candidate `input` was most likely meant to be, for a "did you mean …?" in an error
 * message: the one fewest edits away (letters' case ignored), if it is close enough to be a
 * typo (a third of the input's length, at least one edit); undefined otherwise.
 *
 * @example
 * closest("objectid", ["type", "objectId"])                              // "objectId"
 * closest("payment_intent.captureed", ["payment_intent.captured", "payout.paid"]) // "payment_intent.captured"
 * closest("zzz", ["type", "objectId"])                                   // undefined
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** Insertions, deletions, substitutions and swaps of two neighbours that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
