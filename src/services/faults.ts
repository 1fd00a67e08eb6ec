import * as z from "zod";
import { idOf, timestampSchema } from "../domain/answer-schemas.js";
import { ApiError } from "../domain/errors.js";
import { FAULT_KINDS, FAULT_METHODS, faultRuleSchema, faultRuleSettings, hitsMatch, isFaultablePath, matchesRequest, type FaultKind } from "../domain/faults.js";
import type { Ids } from "../domain/ids.js";
import { maskInput } from "../domain/masking.js";
import { parseOrThrow } from "../domain/validation.js";
import type { Clock } from "../runtime/clock.js";
import type { Store } from "../store/index.js";
import type { FaultRuleRow } from "../store/repos/fault-rules.js";

/** A fault rule as the API shows it (SPEC §14): the type `toFaultResource` builds, and the OpenAPI document's schema. */
export const faultSchema = z.strictObject({
  id: idOf("flt"),
  object: z.literal("fault"),
  fault: z.enum(FAULT_KINDS),
  match: z.strictObject({ method: z.enum(FAULT_METHODS).nullable(), path: z.string().nullable() }),
  times: z.number().int().min(1),
  remaining: z.number().int().min(0),
  probability: z.number().min(0).max(1),
  latency_ms: z.number().int().min(1).nullable(),
  created_at: timestampSchema,
});

export type FaultResource = z.infer<typeof faultSchema>;

/** The fault a rule chose for one request. */
export interface FaultHit {
  ruleId: string;
  fault: FaultKind;
  /** The wait of a `latency` or `timeout`; null for the others. */
  latencyMs: number | null;
}

export function toFaultResource(row: FaultRuleRow): FaultResource {
  return {
    id: row.id,
    object: "fault",
    fault: row.fault as FaultKind,
    match: { method: row.method as FaultResource["match"]["method"], path: row.path },
    times: row.times,
    remaining: row.remaining,
    probability: row.probability,
    latency_ms: row.latency_ms,
    created_at: row.created_at,
  };
}

/**
 * The fault rules of every company: what the API, `faults.add()`/`faults.clear()`, the CLI and
 * the dashboard change and list, and the decision, per request, of which fault (if any) hits it.
 */
export function createFaultRules({ store, clock, ids }: { store: Store; clock: Clock; ids: Ids }) {
  // Most instances never have a rule: while none exists, deciding costs no query. Set on an
  // add; a lookup that finds none for its company checks again whether any company has one,
  // so deletions (a clear, a reset, a rule used up) are noticed without hooks.
  let anyRules = store.faultRules.any();

  return {
    /**
     * Adds a rule for the company from an API body, a dashboard form or a `faults.add()` argument;
     * 400 naming the field for bad input, nothing stored. Every one of them reaches paysim here, so
     * the input is masked here too: an in-process caller's text had no other masking step.
     */
    add(companyId: string, input: unknown): FaultResource {
      const settings = faultRuleSettings(parseOrThrow(faultRuleSchema, maskInput(input)));
      const row = store.transaction(() =>
        store.faultRules.insert({
          id: ids.newId("flt"),
          company_id: companyId,
          fault: settings.fault,
          method: settings.method,
          path: settings.path,
          times: settings.times,
          probability: settings.probability,
          latency_ms: settings.latencyMs,
          seed: settings.seed,
          created_at: clock.nowIso(),
        }),
      );
      anyRules = true;
      return toFaultResource(row);
    },

    /** The company's active rules, oldest first. */
    list: (companyId: string): FaultResource[] => store.faultRules.ofCompany(companyId).map(toFaultResource),

    /** Removes one of the company's rules; 404 for an unknown id or another company's. */
    remove(companyId: string, id: string): void {
      if (!store.transaction(() => store.faultRules.remove(companyId, id))) throw new ApiError("not_found", `No such fault rule: "${id}".`);
    },

    /** Removes every rule of the company; answers how many there were. */
    clear: (companyId: string): number => store.transaction(() => store.faultRules.clear(companyId)),

    /**
     * The fault for this request of the company, if a rule hits it: the rules that match are
     * tried oldest first, each counting the match and drawing for it, and the first hit spends
     * one of its `times`; one request gets at most one fault. Counting, drawing and spending are
     * one unit of the group commit, so two requests never spend the same last hit.
     */
    decide(companyId: string, method: string, path: string): FaultHit | undefined {
      if (!anyRules || !isFaultablePath(path)) return undefined;
      const rules = store.faultRules.ofCompany(companyId);
      if (rules.length === 0) {
        anyRules = store.faultRules.any();
        return undefined;
      }
      const matching = rules.filter((rule) => matchesRequest(rule, method, path));
      if (matching.length === 0) return undefined;
      return store.unit(() => {
        for (const rule of matching) {
          const ordinal = store.faultRules.countMatch(rule.id);
          if (ordinal === undefined || !hitsMatch(rule, ordinal)) continue;
          if (!store.faultRules.useOnce(rule.id)) continue;
          return { ruleId: rule.id, fault: rule.fault as FaultKind, latencyMs: rule.latency_ms };
        }
        return undefined;
      }).result;
    },
  };
}

export type FaultRules = ReturnType<typeof createFaultRules>;
