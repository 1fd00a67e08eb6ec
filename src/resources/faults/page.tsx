/** @jsxImportSource hono/jsx */
import {
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_TIMEOUT_MS,
  FAULT_KINDS,
  FAULT_METHODS,
  MAX_FAULT_LATENCY_MS,
  MAX_FAULT_TIMES,
  MAX_RETRY_AFTER_SECONDS,
} from "../../domain/faults.js";
import type { FaultRuleResource } from "./contract.js";
import { addFaultRule, clearFaultRules, deleteFaultRule } from "./operations.js";
import { baseOf, companyOf, formNumber, given, linkTo, type DashboardApp, type DashboardKit, type Form } from "../../server/dashboard/kit.js";
import { Csrf, NumberField, PageHead, PostButton, Time } from "../../server/dashboard/views/parts.js";

/** What each fault does to a request it hits, in docs/faults.md's words. */
const FAULT_EFFECTS: Record<(typeof FAULT_KINDS)[number], string> = {
  server_error: "500 internal_error; nothing is written",
  rate_limited: `429 rate_limited with Retry-After: retry_after_seconds (default ${DEFAULT_RETRY_AFTER_SECONDS}); nothing is written`,
  lost_response: "the request is done, then the connection closes with no answer",
  timeout: `no answer for latency_ms (default ${DEFAULT_TIMEOUT_MS} ms), then the connection closes`,
  latency: "the normal answer, latency_ms late",
};

/** Which requests a rule matches, in words. */
function matchText(rule: FaultRuleResource): string {
  const { method, path } = rule.match;
  return `${method ?? "any method"} ${path ?? "any /v1 path"}`;
}

/** The company's active rules, oldest first (the order they are tried in), each with Remove (under the session's `base`). */
function RulesList({ rules, csrf, base }: { rules: readonly FaultRuleResource[]; csrf: string; base: string }) {
  if (rules.length === 0) return <p class="empty">No fault rules: every API request is answered normally. Add one below.</p>;
  return (
    <div class="table-scroll">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Fault</th>
            <th scope="col">Matches</th>
            <th scope="col">Hits left</th>
            <th scope="col">Probability</th>
            <th scope="col">Latency</th>
            <th scope="col">Retry-After</th>
            <th scope="col" class="hide-narrow">
              Created
            </th>
            <th scope="col">
              <span class="muted">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr id={`fault-${rule.id}`}>
              <td>
                <strong>{rule.fault}</strong>
                <div class="muted mono">{rule.id}</div>
              </td>
              <td data-label="Matches" class="mono">
                {matchText(rule)}
              </td>
              <td data-label="Hits left" class="num">
                {rule.remaining} of {rule.times}
              </td>
              <td data-label="Probability" class="num">
                {rule.probability}
              </td>
              <td data-label="Latency" class="num">
                {rule.latency_ms === null ? <span class="muted">—</span> : `${rule.latency_ms} ms`}
              </td>
              <td data-label="Retry-After" class="num">
                {rule.retry_after_seconds === null ? <span class="muted">—</span> : `${rule.retry_after_seconds} s`}
              </td>
              <td class="time hide-narrow">
                <Time iso={rule.created_at} />
              </td>
              <td>
                <PostButton
                  action={`${base}/faults/${rule.id}/delete`}
                  csrf={csrf}
                  label="Remove"
                  spoken={`Remove the fault rule ${rule.id}`}
                  tone="small danger"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The add form: each field of `POST /v1/sandbox/faults`, its API name in the hint so a refusal's words point at it. */
function AddRule({ csrf, action }: { csrf: string; action: string }) {
  return (
    <form method="post" action={action}>
      <Csrf token={csrf} />
      <div class="fields">
        <div class="field">
          <label for="fault-kind">
            Fault <span class="hint">fault: what a hit request gets</span>
          </label>
          <select id="fault-kind" name="fault" required>
            {FAULT_KINDS.map((kind) => (
              <option value={kind}>{kind}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="fault-method">
            Method <span class="hint">match.method</span>
          </label>
          <select id="fault-method" name="method">
            <option value="">any method</option>
            {FAULT_METHODS.map((method) => (
              <option value={method}>{method}</option>
            ))}
          </select>
        </div>
        <div class="field wide">
          <label for="fault-path">
            Path <span class="hint">match.path, * for one segment; empty: every /v1 path</span>
          </label>
          <input id="fault-path" type="text" name="path" placeholder="/v1/payment_intents/*/capture" spellcheck={false} autocomplete="off" />
        </div>
        <NumberField
          id="fault-times"
          name="times"
          label="Times"
          hint={`times, 1–${MAX_FAULT_TIMES} (default 1): hits before it is gone`}
          min={1}
          max={MAX_FAULT_TIMES}
        />
        <NumberField id="fault-probability" name="probability" label="Probability" hint="probability, 0–1 (default 1)" min={0} max={1} step="any" />
        <NumberField
          id="fault-latency"
          name="latency_ms"
          label="Latency (ms)"
          hint={`latency_ms, 1–${MAX_FAULT_LATENCY_MS}: latency and timeout only`}
          min={1}
          max={MAX_FAULT_LATENCY_MS}
        />
        <NumberField
          id="fault-retry-after"
          name="retry_after_seconds"
          label="Retry-After (s)"
          hint={`retry_after_seconds, 0–${MAX_RETRY_AFTER_SECONDS} (default ${DEFAULT_RETRY_AFTER_SECONDS}): rate_limited only`}
          min={0}
          max={MAX_RETRY_AFTER_SECONDS}
        />
        <NumberField id="fault-seed" name="seed" label="Seed" hint="seed, an integer (default 0): the same seed hits the same requests" />
      </div>
      <button class="btn primary" type="submit">
        Add fault rule
      </button>
    </form>
  );
}

/** The body of `POST /v1/sandbox/faults` from the form; empty fields are left out, as an API client would. */
function ruleInput(form: Form): Record<string, unknown> {
  const method = form.get("method") || undefined;
  const path = form.get("path")?.trim() || undefined;
  return given({
    fault: form.get("fault"),
    match: method === undefined && path === undefined ? undefined : given({ method, path }),
    times: formNumber(form, "times"),
    probability: formNumber(form, "probability"),
    latency_ms: formNumber(form, "latency_ms"),
    retry_after_seconds: formNumber(form, "retry_after_seconds"),
    seed: formNumber(form, "seed"),
  });
}

/** Faults (docs/faults.md): the company's rules; add, remove one, clear all, through the same rules as `/v1/sandbox/faults`. */
export function faultsPage(app: DashboardApp, { deps, page, act, call, form: readForm }: DashboardKit) {
  const { faults } = deps;

  app.get("/faults", (c) => {
    const csrf = c.get("session").csrf;
    const rules = faults.list(companyOf(c).id);
    const lead =
      "Make this company's API requests fail on purpose, to test a client's retries. Rules are tried oldest first; one request gets at most one fault.";
    const body = (
      <>
        <PageHead title="Faults" lead={lead}>
          {rules.length > 0 ? <PostButton action={linkTo(c, "/faults/clear")} csrf={csrf} label="Clear all" tone="danger" /> : null}
        </PageHead>
        <section class="card flush" aria-label="Fault rules">
          <RulesList rules={rules} csrf={csrf} base={baseOf(c)} />
        </section>
        <section class="card">
          <h2>Add a rule</h2>
          <AddRule csrf={csrf} action={linkTo(c, "/faults")} />
          <div class="effects">
            <h3>What each fault does to a request it hits</h3>
            <dl class="facts">
              {FAULT_KINDS.map((kind) => (
                <>
                  <dt class="mono">{kind}</dt>
                  <dd>{FAULT_EFFECTS[kind]}</dd>
                </>
              ))}
            </dl>
          </div>
        </section>
      </>
    );
    return page(c, { title: "Faults", section: "faults" }, body);
  });

  /** As `POST /v1/sandbox/faults`. */
  app.post("/faults", async (c) => {
    const form = await readForm(c);
    return act(c, "/faults", async () => {
      const rule = await call(c, addFaultRule, { body: ruleInput(form) });
      return `Added ${rule.id}: ${rule.fault} on ${matchText(rule)}, ${rule.times === 1 ? "once" : `${rule.times} times`}.`;
    });
  });

  /** As `DELETE /v1/sandbox/faults/:id`. */
  app.post("/faults/:id/delete", (c) =>
    act(c, "/faults", async () => {
      const id = c.req.param("id");
      await call(c, deleteFaultRule, { params: { id } });
      return `Removed ${id}.`;
    }),
  );

  /** As `DELETE /v1/sandbox/faults`. */
  app.post("/faults/clear", (c) =>
    act(c, "/faults", async () => {
      const removed = (await call(c, clearFaultRules)).deleted;
      return `Cleared ${removed === 1 ? "1 rule" : `${removed} rules`}.`;
    }),
  );
}
