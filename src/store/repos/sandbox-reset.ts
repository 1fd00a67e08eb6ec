import type { Db } from "../open.js";

/** What a reset deleted: the counts the API answers, and the subjects whose in-memory jobs must go too. */
export interface ResetResult {
  deleted: { payment_intents: number; payouts: number; events: number };
  /** Ids of the deleted payouts and deliveries: the subjects of the scheduler's jobs. */
  jobSubjects: Set<string>;
}

/**
 * Deletes the sandbox's activity of one company (or of every company, with null): payment
 * intents, payouts, events, deliveries, attempts, idempotency records, fault rules and the jobs of
 * the deleted payouts and deliveries. Companies, keys, endpoints and meta (the clock) stay. Call it inside a
 * transaction; children go before the rows they reference.
 */
export function createSandboxResetRepo(db: Db) {
  // Two sets of statements rather than one `(? IS NULL OR company_id = ?)`: that OR keeps SQLite
  // from using the company indexes, so a one-company reset would scan every company's rows.
  const everyCompany = resetStatements(db, "1");
  const oneCompany = resetStatements(db, "company_id = @company");

  return {
    reset(companyId: string | null): ResetResult {
      const statements = companyId === null ? everyCompany : oneCompany;
      const params = companyId === null ? {} : { company: companyId };
      const jobSubjects = new Set<string>([...(statements.deliveryIds.all(params) as string[]), ...(statements.payoutIds.all(params) as string[])]);
      statements.attempts.run(params);
      statements.jobs.run(params);
      statements.deliveries.run(params);
      const events = statements.events.run(params).changes;
      const payouts = statements.payouts.run(params).changes;
      const paymentIntents = statements.paymentIntents.run(params).changes;
      statements.idempotencyKeys.run(params);
      statements.faultRules.run(params);
      return { deleted: { payment_intents: paymentIntents, payouts, events }, jobSubjects };
    },
  };
}

function resetStatements(db: Db, scope: string) {
  return {
    deliveryIds: db.prepare(`SELECT id FROM deliveries WHERE ${scope}`).pluck(),
    payoutIds: db.prepare(`SELECT id FROM payouts WHERE ${scope}`).pluck(),
    attempts: db.prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE ${scope})`),
    jobs: db.prepare(
      `DELETE FROM jobs WHERE subject_id IN (SELECT id FROM deliveries WHERE ${scope}) OR subject_id IN (SELECT id FROM payouts WHERE ${scope})`,
    ),
    deliveries: db.prepare(`DELETE FROM deliveries WHERE ${scope}`),
    events: db.prepare(`DELETE FROM events WHERE ${scope}`),
    payouts: db.prepare(`DELETE FROM payouts WHERE ${scope}`),
    paymentIntents: db.prepare(`DELETE FROM payment_intents WHERE ${scope}`),
    idempotencyKeys: db.prepare(`DELETE FROM idempotency_keys WHERE ${scope}`),
    faultRules: db.prepare(`DELETE FROM fault_rules WHERE ${scope}`),
  };
}
