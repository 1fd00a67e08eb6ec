import * as z from "zod";
import { faultRuleSchema } from "../../domain/faults.js";
import type { Db } from "../../store/db.js";
import { by, member, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import type { ColumnCheck } from "../../store/snapshot-rows.js";
import { col, defineTable, handedIn, type RowOf } from "../../store/table.js";

/** A fault rule's columns, read as the rule the API took (its match and counters). */
const fault = (name: string) => member((schemas) => schemas.fault, name);
const ruleField = <T>(pick: (rule: ReturnType<typeof faultRuleSchema.unwrap>["shape"]) => z.ZodType<T>) => by(() => pick(faultRuleSchema.unwrap().shape));
const remaining = fault("remaining");
const faultRemaining = handedIn((sources): ColumnCheck => {
  const check = remaining.handedIn(sources);
  return (value, row, known) =>
    check(value, row, known) ?? (typeof value === "number" && typeof row.times === "number" && value > row.times ? "must not be more than times" : undefined);
});
// As the API takes it: only on a rate_limited rule, within its range; the rules from before it was a field hold 1.
const ruleSchema = by(() => faultRuleSchema);
const faultRetryAfter: ColumnCheck = (value, row, known) =>
  ruleSchema(
    {
      fault: row.fault,
      ...(row.latency_ms === null ? {} : { latency_ms: row.latency_ms }),
      ...(value === null ? {} : { retry_after_seconds: value }),
    },
    row,
    known,
  );
const faultLatency: ColumnCheck = (value, row, known) => ruleSchema({ fault: row.fault, ...(value === null ? {} : { latency_ms: value }) }, row, known);

/** Fault rules (docs/faults.md): per company, tried oldest first (`seq`). */
export const FAULT_RULES = defineTable(
  "fault_rules",
  {
    seq: col.seq(seq),
    id: col.text({ check: fault("id") }, "UNIQUE"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    fault: col.text({ check: fault("fault") }),
    method: col.nullableText({
      check: handedIn((sources) => by(() => (sources.schemas.fault.unwrap().shape.match as z.ZodObject).shape.method as z.ZodType)),
    }),
    path: col.nullableText({ check: ruleField((rule) => rule.match.unwrap().shape.path.unwrap().nullable()) }),
    times: col.integer({ check: ruleField((rule) => rule.times.unwrap()) }),
    remaining: col.integer({ check: faultRemaining }),
    probability: col.real({ check: fault("probability") }),
    latency_ms: col.nullableInteger({ check: faultLatency }),
    seed: col.integer({ check: ruleField((rule) => rule.seed.unwrap()) }),
    /** Requests matched so far: the ordinal of the next match's draw. */
    matched: col.integer({ check: by(() => z.int().min(0)) }, "DEFAULT 0"),
    created_at: col.text({ check: timestamp }),
    /** The Retry-After of a `rate_limited` rule; null for the other faults. */
    retry_after_seconds: col.nullableInteger({ check: faultRetryAfter }),
  },
  { key: "id" },
);

export type FaultRuleRow = RowOf<typeof FAULT_RULES.columns>;

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
