import type { Db } from "../db.js";

export interface FaultRuleRow {
  seq: number;
  id: string;
  company_id: string;
  fault: string;
  method: string | null;
  path: string | null;
  times: number;
  remaining: number;
  probability: number;
  latency_ms: number | null;
  /** The Retry-After of a `rate_limited` rule; null for the other faults. */
  retry_after_seconds: number | null;
  seed: number;
  /** Requests matched so far: the ordinal of the next match's draw. */
  matched: number;
  created_at: string;
}

export function createFaultRulesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO fault_rules (id, company_id, fault, method, path, times, remaining, probability, latency_ms, retry_after_seconds, seed, created_at)
    VALUES (@id, @company_id, @fault, @method, @path, @times, @times, @probability, @latency_ms, @retry_after_seconds, @seed, @created_at) RETURNING *`);
  const ofCompany = db.prepare("SELECT * FROM fault_rules WHERE company_id = ? ORDER BY seq");
  const countOf = db.prepare("SELECT COUNT(*) FROM fault_rules WHERE company_id = ?").pluck();
  const remove = db.prepare("DELETE FROM fault_rules WHERE company_id = ? AND id = ?");
  const clear = db.prepare("DELETE FROM fault_rules WHERE company_id = ?");
  const countMatch = db.prepare("UPDATE fault_rules SET matched = matched + 1 WHERE company_id = ? AND id = ? RETURNING matched - 1").pluck();
  const useOnce = db.prepare("UPDATE fault_rules SET remaining = remaining - 1 WHERE company_id = ? AND id = ? AND remaining > 0");
  const dropUsedUp = db.prepare("DELETE FROM fault_rules WHERE company_id = ? AND id = ? AND remaining = 0");
  return {
    insert: (row: Omit<FaultRuleRow, "seq" | "remaining" | "matched">) => insert.get(row) as FaultRuleRow,
    /** The company's rules, oldest first. */
    ofCompany: (companyId: string) => ofCompany.all(companyId) as FaultRuleRow[],
    /** How many active rules the company holds. */
    countOf: (companyId: string) => countOf.get(companyId) as number,
    remove: (companyId: string, id: string) => remove.run(companyId, id).changes === 1,
    /** Deletes every rule of the company; answers how many there were. */
    clear: (companyId: string) => clear.run(companyId).changes,
    /** Counts one more matched request; answers its ordinal (0 for the rule's first). Undefined when the company's rule is gone. */
    countMatch: (companyId: string, id: string) => countMatch.get(companyId, id) as number | undefined,
    /**
     * Spends one of the rule's hits, deleting it once none are left: "spent", "used_up" when that
     * was its last hit (the rule is gone), "none" when it had none (it was used up meanwhile).
     * Call inside a transaction with the decision it carries out.
     */
    useOnce(companyId: string, id: string): "spent" | "used_up" | "none" {
      if (useOnce.run(companyId, id).changes !== 1) return "none";
      return dropUsedUp.run(companyId, id).changes === 1 ? "used_up" : "spent";
    },
  };
}
