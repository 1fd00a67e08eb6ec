import type { Db } from "../open.js";

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
  seed: number;
  /** Requests matched so far: the ordinal of the next match's draw. */
  matched: number;
  created_at: string;
}

export function createFaultRulesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO fault_rules (id, company_id, fault, method, path, times, remaining, probability, latency_ms, seed, created_at)
    VALUES (@id, @company_id, @fault, @method, @path, @times, @times, @probability, @latency_ms, @seed, @created_at) RETURNING *`);
  const ofCompany = db.prepare("SELECT * FROM fault_rules WHERE company_id = ? ORDER BY seq");
  const any = db.prepare("SELECT EXISTS (SELECT 1 FROM fault_rules)").pluck();
  const remove = db.prepare("DELETE FROM fault_rules WHERE company_id = ? AND id = ?");
  const clear = db.prepare("DELETE FROM fault_rules WHERE company_id = ?");
  const countMatch = db.prepare("UPDATE fault_rules SET matched = matched + 1 WHERE id = ? RETURNING matched - 1").pluck();
  const useOnce = db.prepare("UPDATE fault_rules SET remaining = remaining - 1 WHERE id = ? AND remaining > 0");
  const dropUsedUp = db.prepare("DELETE FROM fault_rules WHERE id = ? AND remaining = 0");
  return {
    insert: (row: Omit<FaultRuleRow, "seq" | "remaining" | "matched">) => insert.get(row) as FaultRuleRow,
    /** The company's rules, oldest first. */
    ofCompany: (companyId: string) => ofCompany.all(companyId) as FaultRuleRow[],
    /** Whether any company has a rule. */
    any: () => any.get() === 1,
    remove: (companyId: string, id: string) => remove.run(companyId, id).changes === 1,
    /** Deletes every rule of the company; answers how many there were. */
    clear: (companyId: string) => clear.run(companyId).changes,
    /** Counts one more matched request; answers its ordinal (0 for the rule's first). Undefined when the rule is gone. */
    countMatch: (id: string) => countMatch.get(id) as number | undefined,
    /**
     * Spends one of the rule's hits, deleting it once none are left; false when it had none
     * (it was used up meanwhile). Call inside a transaction with the decision it carries out.
     */
    useOnce(id: string): boolean {
      if (useOnce.run(id).changes !== 1) return false;
      dropUsedUp.run(id);
      return true;
    },
  };
}
