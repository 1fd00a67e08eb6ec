import { maskTextKeeping } from "../domain/masking.js";
import { escapeControls } from "../domain/terminal-text.js";

/** What `paysim start` tells the developer first: where it listens, with which keys and secrets. */
export interface BannerFacts {
  version: string;
  url: string;
  /** A one-time sign-in link to the dashboard for the default company (docs/dashboard.md); undefined when not made. */
  dashboardLoginUrl?: string | undefined;
  db: string;
  companies: {
    name: string;
    currency: string;
    isDefault: boolean;
    /** Undefined when the key is stored hashed and this start was not given it. */
    secretKey: string | undefined;
    endpoints: { url: string; secret: string }[];
  }[];
  /** Set when listening beyond loopback: the sandbox is reachable from the network. */
  exposedHost: string | undefined;
  /** Endpoints from before paysim marked what --forward-to made, kept by this start: said once. */
  keptFromBeforeMarking?: { id: string; url: string }[] | undefined;
}

/** The keys and signing secrets the banner hands back to their owner: printed exactly, never digit-masked (docs/guarantees.md). */
export function bannerCredentials(facts: BannerFacts): string[] {
  return facts.companies.flatMap((c) => [...(c.secretKey === undefined ? [] : [c.secretKey]), ...c.endpoints.map((e) => e.secret)]);
}

/**
 * The banner as lines (masked but for its credentials, then escaped: a company's name comes from a
 * config file or an instance's body, docs/guarantees.md), the same in the plain log and at the top
 * of the live view. Other tools read these lines (`listening on`, `  key       sk_test_…`): keep their shape.
 */
export function bannerLines(facts: BannerFacts): string[] {
  const lines = [`paysim ${facts.version} listening on ${facts.url}`];
  for (const company of facts.companies) {
    lines.push(`  company   ${company.name} (${company.currency})${company.isDefault ? " [default]" : ""}`);
    lines.push(`  key       ${company.secretKey ?? "(stored hashed; not known to this start)"}`);
    for (const endpoint of company.endpoints) lines.push(`  webhook   ${endpoint.url}  signing secret ${endpoint.secret}`);
  }
  lines.push(`  database  ${facts.db}`);
  if (facts.dashboardLoginUrl !== undefined) lines.push(`  dashboard ${facts.dashboardLoginUrl}`);
  for (const endpoint of facts.keptFromBeforeMarking ?? []) {
    lines.push(
      `  notice    kept webhook ${endpoint.id} (${endpoint.url}): it is older than paysim's record of which endpoints --forward-to made, so no start removes it; if an earlier --forward-to made it, remove it with: paysim endpoints remove ${endpoint.id}`,
    );
  }
  if (facts.exposedHost !== undefined) {
    lines.push(`  warning   listening on ${facts.exposedHost}: this sandbox is reachable from the network.`);
  }
  const credentials = bannerCredentials(facts);
  return lines.map((line) => escapeControls(maskTextKeeping(line, credentials)));
}
