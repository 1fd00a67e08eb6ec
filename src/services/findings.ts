import type { Bus, DeliveryAttempted, RequestLogged } from "../bus.js";
import { FindingsTracker, mergeFindings, type Finding } from "../domain/findings.js";
import type { Clock } from "../runtime/clock.js";

/**
 * A company's findings (docs/testing.md, "Findings"): its own, those of the instances it started
 * that still run (a tracker each, so that two workers' identical orders are never taken for one
 * client's retry), and those of the instances that stopped, merged into one bounded list.
 */
export interface CompanyFindings {
  own: FindingsTracker;
  live: Set<FindingsTracker>;
  stopped: Finding[];
}

export interface FindingsPorts {
  clock: Clock;
  /** Whether the company has a webhook endpoint now: asked only when reads of one object reach the polling threshold. */
  hasWebhookEndpoint: (companyId: string) => boolean;
}

export const freshFindings = (companyId: string, ports: FindingsPorts): CompanyFindings => ({
  own: new FindingsTracker(() => ports.hasWebhookEndpoint(companyId)),
  live: new Set(),
  stopped: [],
});

/** The findings to report: the company's own, and with `all` its instances' too. */
export function reportedFindings(findings: CompanyFindings, scope: "all" | "self"): Finding[] {
  if (scope === "self") return findings.own.findings();
  return mergeFindings([findings.own.findings(), ...[...findings.live].map((tracker) => tracker.findings()), findings.stopped]);
}

/** Forgets every finding and what the rules kept, the running instances' included. */
export function clearFindings(findings: CompanyFindings): void {
  findings.own.clear();
  for (const tracker of findings.live) tracker.clear();
  findings.stopped = [];
}

/**
 * Feeds what `bus` announces to the tracker `trackerOf` names for a company: every /v1 request
 * authenticated as a company (one with no key or an unknown one is nobody's: trackerOf is not
 * asked) but the sandbox controls, and every delivery attempt. `clock` is the clock of the paysim
 * whose bus it is: an instance's findings are judged on the instance's own. Every reset forgets
 * what the rules kept to decide (a reset is a test's boundary): a company's reset its tracker's,
 * a reset of every company (in-process `reset()`) that of each tracker `everyTracker` gives; the
 * findings stay.
 */
export function observeFrom(
  bus: Bus,
  clock: Clock,
  trackerOf: (companyId: string) => FindingsTracker | undefined,
  everyTracker: () => Iterable<FindingsTracker>,
): void {
  // Read only when a rule raises a finding.
  const at = () => clock.nowIso();
  bus.on("request.logged", (logged: RequestLogged) => {
    if (logged.companyId === undefined || logged.route === undefined || logged.path.startsWith("/v1/sandbox/") || !logged.path.startsWith("/v1/")) return;
    const tracker = trackerOf(logged.companyId);
    if (!tracker) return;
    tracker.request(
      {
        requestId: logged.requestId,
        method: logged.method,
        route: logged.route,
        path: logged.path,
        status: logged.unanswered ? "none" : logged.status,
        arrivedAtMs: logged.arrivedAtMs,
        answeredAtMs: logged.arrivedAtMs + logged.durationMs,
        // paysim's clock matters to the creations a key names; a read needs none.
        clockMs: logged.idempotencyKeyDigest === undefined ? 0 : clock.now(),
        idempotencyKey: logged.idempotencyKeyDigest,
        bodyDigest: logged.bodyFingerprint,
        body: logged.body,
        objectId: logged.objectId,
        retryAfterSeconds: logged.retryAfterSeconds,
      },
      at,
    );
  });
  bus.on("delivery.attempted", (update: DeliveryAttempted) => {
    trackerOf(update.companyId)?.attempt(
      {
        deliveryId: update.deliveryId,
        eventType: update.eventType,
        url: update.url,
        attempt: update.attempts,
        status: update.attempt.statusCode,
        durationMs: update.attempt.durationMs,
        chaosAltered: update.attempt.chaos != null,
        eventRequestId: update.eventRequestId,
      },
      at,
    );
  });
  bus.on("sandbox.reset", ({ companyId }) => {
    if (companyId !== null) trackerOf(companyId)?.reset();
    else for (const tracker of everyTracker()) tracker.reset();
  });
}
