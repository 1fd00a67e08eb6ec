import { withRequestIdSchema } from "../../contracts/common.js";
import { COVERAGE_EXAMPLE, coverageClearedSchema, coverageQuery, coverageSchema, REPORT_EXAMPLE, reportSchema } from "../../contracts/coverage.js";
import { runReport } from "../../domain/run-report.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { defineAction } from "./define.js";

const PATH = "/v1/sandbox/coverage";

/** /v1/sandbox/coverage and /v1/sandbox/report: the caller's company's coverage report, against `catalogue`, its clear, and the run report with its findings (docs/testing.md, "Coverage"). */
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
      summary: "Start this company's coverage and findings anew, its instances' included; a reset keeps them",
      answers: { 200: withRequestIdSchema(coverageClearedSchema) },
      example: { answer: { object: "coverage_cleared", since: "2025-01-01T12:00:00.000Z", request_id: COVERAGE_EXAMPLE.request_id } },
      act: ({ deps, company }) => ({ resource: { object: "coverage_cleared" as const, since: deps.coverage.clear(company.id) } }),
    }),
    defineAction({
      operationId: "getReport",
      method: "get",
      path: "/v1/sandbox/report",
      summary:
        "The run report: this company's coverage and the integration mistakes its client made (findings), its instances' included unless scope=self, with a summary",
      query: coverageQuery,
      answers: { 200: withRequestIdSchema(reportSchema) },
      example: { answer: REPORT_EXAMPLE },
      act: ({ deps, company, query }) => ({
        resource: runReport(deps.coverage.report(company.id, catalogue(), query.scope), deps.coverage.findings(company.id, query.scope)),
      }),
    }),
  ];
}
