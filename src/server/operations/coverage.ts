import { withRequestIdSchema } from "../../contracts/common.js";
import { COVERAGE_EXAMPLE, coverageClearedSchema, coverageQuery, coverageSchema } from "../../contracts/coverage.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { defineAction } from "./define.js";

const PATH = "/v1/sandbox/coverage";

/** /v1/sandbox/coverage: the caller's company's coverage report, against `catalogue`, and its clear (docs/testing.md, "Coverage"). */
export function coverageOperations(catalogue: () => CoverageCatalogue) {
  return [
    defineAction({
      operationId: "getCoverage",
      method: "get",
      path: PATH,
      summary:
        "What this company's calls (and its instances', unless scope=self), state moves, events, webhooks, errors and faults went through, and what they left out",
      query: coverageQuery,
      answers: { 200: withRequestIdSchema(coverageSchema) },
      example: { answer: COVERAGE_EXAMPLE },
      act: ({ deps, company, query }) => ({ resource: deps.coverage.report(company.id, catalogue(), query.scope) }),
    }),
    defineAction({
      operationId: "clearCoverage",
      method: "delete",
      path: PATH,
      summary: "Start this company's coverage anew, its instances' included; a reset keeps it",
      answers: { 200: withRequestIdSchema(coverageClearedSchema) },
      example: { answer: { object: "coverage_cleared", since: "2025-01-01T12:00:00.000Z", request_id: COVERAGE_EXAMPLE.request_id } },
      act: ({ deps, company }) => ({ resource: { object: "coverage_cleared", since: deps.coverage.clear(company.id) } }),
    }),
  ];
}
