/** @jsxImportSource hono/jsx */
import { FINDING_CODES, type Finding, type FindingSeverity } from "../../../domain/findings.js";
import { runReport } from "../../../domain/run-report.js";
import type { CoverageCatalogue } from "../../../services/coverage.js";
import { baseOf, companyOf, linkTo, type DashboardApp, type DashboardKit } from "../kit.js";
import { CoverageSections } from "../views/coverage-parts.js";
import { ObjectLink, PageHead, Time } from "../views/parts.js";

/** How each severity reads: its pill's tone and word. */
const SEVERITY: Record<FindingSeverity, { tone: string; word: string }> = {
  error: { tone: "fail", word: "error" },
  warning: { tone: "wait", word: "warning" },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** An example's object: a payment intent or payout linked to its page, a delivery to its place on its event's page. */
function ExampleObject({ base, id, deliveryHref }: { base: string; id: string | undefined; deliveryHref: (id: string) => string | undefined }) {
  const href = id?.startsWith("del_") ? deliveryHref(id) : undefined;
  if (id === undefined || href === undefined) return <ObjectLink base={base} id={id ?? null} />;
  return (
    <a class="mono" href={href}>
      {id}
    </a>
  );
}

/** One finding: what it is, how often, what to do, and the requests (or deliveries) that raised it. */
function FindingCard({ finding, base, deliveryHref }: { finding: Finding; base: string; deliveryHref: (id: string) => string | undefined }) {
  const severity = SEVERITY[finding.severity];
  // The webhook rules name a delivery and a creation names none: the column shows only when an example has one.
  const objects = finding.examples.some((example) => example.object_id !== undefined);
  return (
    <section class={`card finding ${finding.severity}`} id={`finding-${finding.code}`} aria-label={finding.code}>
      <div class="finding-head">
        <span class={`pill ${severity.tone}`}>{severity.word}</span>
        <code>{finding.code}</code>
        <span class="muted">
          {finding.count === 1 ? "once" : `${finding.count} times`}, first seen <Time iso={finding.first_seen_at} />
        </span>
      </div>
      <h2>{finding.title}</h2>
      <p class="advice">{finding.advice}</p>
      <div class="table-scroll">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Request</th>
              {objects ? <th scope="col">Object</th> : null}
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody>
            {finding.examples.map((example) => (
              <tr>
                <td data-label="Request" class="mono request">
                  {example.request_id ?? <span class="muted">a webhook delivery</span>}
                </td>
                {objects ? (
                  <td data-label="Object">
                    <ExampleObject base={base} id={example.object_id} deliveryHref={deliveryHref} />
                  </td>
                ) : null}
                <td data-label="What" class="detail">
                  {example.detail}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {finding.count > finding.examples.length ? (
        <p class="muted more">
          The first {plural(finding.examples.length, "example")} of {finding.count}.
        </p>
      ) : null}
    </section>
  );
}

/** The findings, or the word that there are none, naming what paysim watches for. */
function Findings({ findings, base, deliveryHref }: { findings: readonly Finding[]; base: string; deliveryHref: (id: string) => string | undefined }) {
  if (findings.length === 0) {
    return (
      <section class="card" aria-label="Findings" id="findings">
        <p class="empty">
          <strong>No findings.</strong> This company's client made none of the mistakes paysim watches for:{" "}
          {FINDING_CODES.map((code, i) => (
            <>
              {i > 0 ? ", " : ""}
              <code>{code}</code>
            </>
          ))}
          .
        </p>
      </section>
    );
  }
  return (
    <section aria-label="Findings" id="findings">
      {findings.map((finding) => (
        <FindingCard finding={finding} base={base} deliveryHref={deliveryHref} />
      ))}
    </section>
  );
}

/**
 * Report (docs/testing.md, "The run report"): the session's company's findings first, then its
 * coverage, as GET /v1/sandbox/report answers them (its instances' included).
 */
export function reportPage(app: DashboardApp, { deps, page }: DashboardKit, catalogue: () => CoverageCatalogue) {
  app.get("/report", (c) => {
    const companyId = companyOf(c).id;
    const report = runReport(deps.coverage.report(companyId, catalogue()), deps.coverage.findings(companyId));
    const { error, warning } = report.summary.findings;
    const deliveryHref = (id: string) => {
      const eventId = deps.events.eventOfDelivery(companyId, id);
      return eventId === undefined ? undefined : linkTo(c, `/events/${eventId}#delivery-${id}`);
    };
    const lead = (
      <>
        The integration mistakes this company's client made since <Time iso={report.since} /> ({plural(error, "error")}, {plural(warning, "warning")}), then
        what its calls went through and what they never did, as GET /v1/sandbox/report answers it. A reset keeps both; DELETE /v1/sandbox/coverage clears them.
      </>
    );
    const body = (
      <>
        <PageHead title="Report" lead={lead} />
        <Findings findings={report.findings} base={baseOf(c)} deliveryHref={deliveryHref} />
        <h2 class="section-title">Coverage</h2>
        <CoverageSections report={report.coverage} />
      </>
    );
    return page(c, { title: "Report", section: "report" }, body);
  });
}
