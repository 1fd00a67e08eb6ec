/** @jsxImportSource hono/jsx */
import type { CoverageCatalogue } from "../../../services/coverage.js";
import { companyOf, type DashboardApp, type DashboardKit } from "../kit.js";
import { CoverageSections } from "../views/coverage-parts.js";
import { PageHead, Time } from "../views/parts.js";

/** Coverage (docs/testing.md, "Coverage"): the session's company's report, as GET /v1/sandbox/coverage answers it. */
export function coveragePage(app: DashboardApp, { deps, page }: DashboardKit, catalogue: () => CoverageCatalogue) {
  app.get("/coverage", (c) => {
    const report = deps.coverage.report(companyOf(c).id, catalogue());
    const lead = (
      <>
        What this company's API calls, state moves, events, webhooks, errors and faults went through since <Time iso={report.since} />, and what they never did.
        {report.instances > 0 && ` It counts the ${report.instances === 1 ? "instance" : `${report.instances} instances`} this company started. `}
        Requests to /v1/sandbox are not counted; a reset keeps the counts (DELETE /v1/sandbox/coverage clears them).
      </>
    );
    const body = (
      <>
        <PageHead title="Coverage" lead={lead} />
        <CoverageSections report={report} />
      </>
    );
    return page(c, { title: "Coverage", section: "coverage" }, body);
  });
}
