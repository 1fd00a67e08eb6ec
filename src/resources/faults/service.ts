import type { Bus } from "../../bus.js";
import type { FaultRuleResource } from "./contract.js";
import { ApiError } from "../../domain/errors.js";
import {
  createFaultRuleIndex,
  faultRuleSchema,
  faultRuleSettings,
  hitsMatch,
  MAX_ACTIVE_FAULT_RULES,
  type FaultKind,
  type FaultRuleIndex,
} from "../../domain/faults.js";
import type { Ids } from "../../domain/ids.js";
import { maskInput } from "../../domain/masking.js";
import { parseOrThrow } from "../../domain/validation.js";
import type { Clock } from "../../runtime/clock.js";
import type { Store } from "../../store/index.js";
import type { FaultRuleRow } from "./store.js";

/** The fault a rule chose for one request. */
export interface FaultHit {
  ruleId: string;
  fault: FaultKind;
  /** The wait of a `latency` or `timeout`; null for the others. */
  latencyMs: number | null;
  /** The Retry-After of a `rate_limited`; null for the others. */
  retryAfterSeconds: number | null;
}

export function toFaultRuleResource(row: FaultRuleRow): FaultRuleResource {
  return {
    id: row.id,
    object: "fault",
    fault: row.fault as FaultKind,
    match: { method: row.method as FaultRuleResource["match"]["method"], path: row.path },
    times: row.times,
    remaining: row.remaining,
    probability: row.probability,
    latency_ms: row.latency_ms,
    retry_after_seconds: row.retry_after_seconds,
    created_at: row.created_at,
  };
}

/**
 * The fault rules of every company: what the API, `faults.add()`/`faults.clear()`, the CLI and
 * the dashboard change and list, and the decision, per request, of which fault (if any) hits it.
 *
 * Deciding reads each company's rules from an index kept in memory (createFaultRuleIndex), loaded
 * from the database on the company's first request and kept up to date by every change made here.
 * A rule deleted behind its back (a reset, heard on the bus; a rule used up) is found gone when
 * its match is counted, and dropped then.
 */
export function createFaultRules({ store, clock, ids, bus }: { store: Store; clock: Clock; ids: Ids; bus: Bus }) {
  const indexes = new Map<string, FaultRuleIndex<FaultRuleRow>>();
  const indexOf = (companyId: string): FaultRuleIndex<FaultRuleRow> => {
    let index = indexes.get(companyId);
    if (!index) {
      index = createFaultRuleIndex<FaultRuleRow>();
      for (const row of store.faultRules.ofCompany(companyId)) index.add(row);
      indexes.set(companyId, index);
    }
    return index;
  };
  bus.on("sandbox.reset", ({ companyId }) => (companyId === null ? indexes.clear() : indexes.delete(companyId)));

  /** As `add`, for a rule the operation has already masked and validated (the API, the dashboard). */
  function addChecked(companyId: string, input: Parameters<typeof faultRuleSettings>[0]): FaultRuleResource {
    const settings = faultRuleSettings(input);
    const row = store.transaction(() => {
      if (store.faultRules.countOf(companyId) >= MAX_ACTIVE_FAULT_RULES) {
        throw new ApiError(
          "invalid_request",
          `This company already has ${MAX_ACTIVE_FAULT_RULES} active fault rules, the most it may hold: delete rules (DELETE /v1/sandbox/faults/:id, or DELETE /v1/sandbox/faults for all) before adding another.`,
          "faults",
        );
      }
      return store.faultRules.insert({
        id: ids.newId("flt"),
        company_id: companyId,
        fault: settings.fault,
        method: settings.method,
        path: settings.path,
        times: settings.times,
        probability: settings.probability,
        latency_ms: settings.latencyMs,
        retry_after_seconds: settings.retryAfterSeconds,
        seed: settings.seed,
        created_at: clock.nowIso(),
      });
    });
    indexes.get(companyId)?.add(row);
    return toFaultRuleResource(row);
  }

  return {
    /**
     * Adds a rule for the company from a `faults.add()` argument of startPaysim(), masked and
     * validated here as the operation does for the API and the dashboard: 400 naming the field for
     * bad input, or `faults` when the company already holds MAX_ACTIVE_FAULT_RULES; nothing stored then.
     */
    add(companyId: string, input: unknown): FaultRuleResource {
      return addChecked(companyId, parseOrThrow(faultRuleSchema, maskInput(input)));
    },

    addChecked,

    /** The company's active rules, oldest first. */
    list: (companyId: string): FaultRuleResource[] => store.faultRules.ofCompany(companyId).map(toFaultRuleResource),

    /** Removes one of the company's rules; 404 for an unknown id or another company's. */
    remove(companyId: string, id: string): void {
      if (!store.transaction(() => store.faultRules.remove(companyId, id))) throw new ApiError("not_found", `No such fault rule: "${id}".`);
      indexes.get(companyId)?.remove(id);
    },

    /** Removes every rule of the company; answers how many there were. */
    clear(companyId: string): number {
      const removed = store.transaction(() => store.faultRules.clear(companyId));
      indexes.delete(companyId);
      return removed;
    },

    /**
     * The fault for this request of the company, if a rule hits it: the rules that match are
     * tried oldest first, each counting the match and drawing for it, and the first hit spends
     * one of its `times`; one request gets at most one fault. Counting, drawing and spending are
     * one unit of the group commit, so two requests never spend the same last hit. `path` is the
     * request's path as routing reads it (`c.req.path`).
     */
    decide(companyId: string, method: string, path: string): FaultHit | undefined {
      const index = indexOf(companyId);
      // A rule of probability 0 never hits: its matches need no counting, and no write.
      const matching = index.matching(method, path).filter((rule) => rule.probability > 0);
      if (matching.length === 0) return undefined;
      return store.unit(() => {
        for (const rule of matching) {
          const ordinal = store.faultRules.countMatch(companyId, rule.id);
          if (ordinal === undefined) {
            index.remove(rule.id);
            continue;
          }
          if (!hitsMatch(rule, ordinal)) continue;
          const spent = store.faultRules.useOnce(companyId, rule.id);
          if (spent === "used_up") index.remove(rule.id);
          if (spent === "none") continue;
          return { ruleId: rule.id, fault: rule.fault as FaultKind, latencyMs: rule.latency_ms, retryAfterSeconds: rule.retry_after_seconds };
        }
        return undefined;
      }).result;
    },
  };
}

export type FaultRules = ReturnType<typeof createFaultRules>;

export type { FaultRuleResource } from "./contract.js";
