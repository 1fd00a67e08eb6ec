/** @jsxImportSource hono/jsx */
import { COVERAGE_AREAS, type CoverageArea, type CoverageReport } from "../../../domain/coverage-report.js";
import { MACHINES } from "../../../domain/resources.js";

/** Each area as the pages title it. */
const AREA_TITLES: Record<CoverageArea, string> = {
  operations: "Operations",
  transitions: "State moves",
  events: "Event types",
  webhooks: "Webhook outcomes",
  errors: "Error codes",
  faults: "Faults",
};

interface Row {
  name: string;
  n: number;
  detail?: string | undefined;
}

/** A count: 0 marked as never gone through. */
function Count({ n }: { n: number }) {
  return n === 0 ? <span class="pill fail">never</span> : <span class="pill ok">{n}</span>;
}

/** One area's items with their counts, the uncovered first-class: each row a name and a count. */
function AreaCard({ area, rows }: { area: CoverageArea; rows: readonly Row[] }) {
  return (
    <section class="card flush" aria-label={AREA_TITLES[area]} id={`coverage-${area}`}>
      <h2>{AREA_TITLES[area]}</h2>
      <div class="table-scroll">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                <td class="mono">
                  {row.name}
                  {row.detail ? <div class="muted">{row.detail}</div> : null}
                </td>
                <td data-label="Count" class="num">
                  <Count n={row.n} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The rows of each area, from the report: the same items and counts the API answers. */
function rowsOf(report: CoverageReport): Record<CoverageArea, Row[]> {
  const plain = (tally: Record<string, number>) => Object.entries(tally).map(([name, n]) => ({ name, n }));
  return {
    operations: Object.entries(report.operations).map(([name, { calls, statuses }]) => ({
      name,
      n: calls,
      detail:
        calls === 0
          ? undefined
          : Object.entries(statuses)
              .map(([status, n]) => `${status} × ${n}`)
              .join(", "),
    })),
    transitions: MACHINES.flatMap((machine) => Object.entries(report.transitions[machine]).map(([move, n]) => ({ name: `${machine}: ${move}`, n }))),
    events: plain(report.events),
    webhooks: plain(report.webhooks),
    errors: plain(report.errors),
    faults: plain(report.faults),
  };
}

/**
 * A coverage report as the dashboard shows it (the Coverage page, and the Report page under its
 * findings): each area's ratio and what was never gone through, every item with its count, and
 * the refused moves tried.
 */
export function CoverageSections({ report }: { report: CoverageReport }) {
  const rows = rowsOf(report);
  const refused = MACHINES.flatMap((machine) => Object.entries(report.refused_transitions[machine]).map(([move, n]) => ({ name: `${machine}: ${move}`, n })));
  return (
    <>
      <section class="card flush" aria-label="Summary">
        <div class="table-scroll">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Area</th>
                <th scope="col">Covered</th>
                <th scope="col">Never gone through</th>
              </tr>
            </thead>
            <tbody>
              {COVERAGE_AREAS.map((area) => (
                <tr>
                  <td>
                    <a href={`#coverage-${area}`}>{AREA_TITLES[area]}</a>
                  </td>
                  <td data-label="Covered" class="num">
                    {report.summary[area]}
                  </td>
                  <td data-label="Never" class="mono">
                    {report.uncovered[area].length === 0 ? <span class="muted">nothing</span> : report.uncovered[area].join(", ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div class="grid two">
        {COVERAGE_AREAS.map((area) => (
          <AreaCard area={area} rows={rows[area]} />
        ))}
      </div>
      <section class="card" aria-label="Refused moves" id="coverage-refused">
        <h2>Refused moves tried</h2>
        {refused.length === 0 ? (
          <p class="empty">No move the state machines refuse was asked for.</p>
        ) : (
          <dl class="facts">
            {refused.map(({ name, n }) => (
              <>
                <dt class="mono">{name}</dt>
                <dd>{n}</dd>
              </>
            ))}
          </dl>
        )}
      </section>
    </>
  );
}
