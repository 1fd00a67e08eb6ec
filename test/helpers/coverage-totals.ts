/**
 * The coverage report's totals, read from the catalogue a paysim serves rather than written out
 * (16 operations, 11 moves…): a resource added as docs/architecture.md ("Adding a resource") says
 * changes them, and no test that uses them.
 */
import { FAULT_KINDS } from "../../src/domain/faults.js";
import { createPaysim } from "../../src/paysim.js";
import { catalogueOf } from "../../src/server/app.js";
import { WEBHOOK_OUTCOMES, type CoverageCatalogue } from "../../src/services/coverage.js";

/** The coverage catalogue a paysim serves, read from one started for the purpose (in memory, closed at once). */
async function servedCatalogue(): Promise<CoverageCatalogue> {
  const paysim = await createPaysim({ port: 0, db: ":memory:" });
  try {
    return catalogueOf(paysim.app);
  } finally {
    await paysim.close();
  }
}

export const SERVED_CATALOGUE: CoverageCatalogue = await servedCatalogue();

export type CoverageArea = "operations" | "transitions" | "events" | "webhooks" | "errors" | "faults";

/** How many items each area of the coverage report has: what its summary's "covered/total" divides by. */
export const COVERAGE_TOTALS: Record<CoverageArea, number> = {
  operations: SERVED_CATALOGUE.operations.length,
  transitions: Object.values(SERVED_CATALOGUE.transitions).reduce((sum, moves) => sum + moves.length, 0),
  events: SERVED_CATALOGUE.events.length,
  webhooks: WEBHOOK_OUTCOMES.length,
  errors: SERVED_CATALOGUE.errors.length,
  faults: FAULT_KINDS.length,
};

/**
 * Each area's summary, "covered/total", for a run that covered `covered` of it (0 where not given).
 *
 * @example
 * coverageRatios({ operations: 1 }).operations // "1/16" with sixteen counted operations
 */
export function coverageRatios(covered: Partial<Record<CoverageArea, number>> = {}): Record<CoverageArea, string> {
  const ratio = (area: CoverageArea) => `${covered[area] ?? 0}/${COVERAGE_TOTALS[area]}`;
  return {
    operations: ratio("operations"),
    transitions: ratio("transitions"),
    events: ratio("events"),
    webhooks: ratio("webhooks"),
    errors: ratio("errors"),
    faults: ratio("faults"),
  };
}
