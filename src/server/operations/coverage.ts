import { noQuery, withRequestIdSchema } from "../../contracts/common.js";
import { COVERAGE_EXAMPLE, coverageSchema } from "../../contracts/coverage.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { defineAction } from "./define.js";

/** /v1/sandbox/coverage: the caller's company's coverage report, against `catalogue` (docs/testing.md, "Coverage"). */
export function coverageOperations(catalogue: () => CoverageCatalogue) {
  return [
    defineAction({
      operationId: "getCoverage",
      method: "get",
      path: "/v1/sandbox/coverage",
      summary: "What this company's calls, state moves, events, webhooks, errors and faults went through, and what they left out",
      query: noQuery,
      answers: { 200: withRequestIdSchema(coverageSchema) },
      example: { answer: COVERAGE_EXAMPLE },
      act: ({ deps, company }) => ({ resource: deps.coverage.report(company.id, catalogue()) }),
    }),
  ];
}
