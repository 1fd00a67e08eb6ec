import type { Db } from "../open.js";

/** What a reset deleted: the counts the API answers, and the subjects whose in-memory jobs must go too. */
export interface ResetResult {
  deleted: { payment_intents: number; payouts: number; events: number };
  /** Ids of the deleted payouts and deliveries: the subjects of the scheduler's jobs. */
  jobSubjects: Set<string>;
}

/**
 * Deletes the sandbox's activity of one company (or of every company, with null): payment
 * intents, payouts, events, deliveries, attempts, idempotency records and the jobs of the deleted
 * payouts and deliveries. Companies, keys, endpoints and meta (the clock) stay. Call it inside a
 * transaction; children go before the rows they reference.
 */
export function createSandboxResetRepo(db: Db) {
  const scope = "(@company IS NULL OR company_id = @company)";
  const deliveryIds = db.prepare(`SELECT id FROM deliveries WHERE ${scope}`).pluck();
  const payoutIds = db.prepare(`SELECT id FROM payouts WHERE ${scope}`).pluck();
  const attempts = db.prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE ${scope})`);
  const jobs = db.prepare(
    `DELETE FROM jobs WHERE subject_id IN (SELECT id FROM deliveries WHERE ${scope}) OR subject_id IN (SELECT id FROM payouts WHERE ${scope})`,
  );
  const deliveries = db.prepare(`DELETE FROM deliveries WHERE ${scope}`);
  const events = db.prepare(`DELETE FROM events WHERE ${scope}`);
  const payouts = db.prepare(`DELETE FROM payouts WHERE ${scope}`);
  const paymentIntents = db.prepare(`DELETE FROM payment_intents WHERE ${scope}`);
  const idempotencyKeys = db.prepare(`DELETE FROM idempotency_keys WHERE ${scope}`);

  return {
    reset(companyId: string | null): ResetResult {
      const params = { company: companyId };
      const jobSubjects = new Set<string>([...(deliveryIds.all(params) as string[]), ...(payoutIds.all(params) as string[])]);
      attempts.run(params);
      jobs.run(params);
      deliveries.run(params);
      const deletedEvents = events.run(params).changes;
      const deletedPayouts = payouts.run(params).changes;
      const deletedIntents = paymentIntents.run(params).changes;
      idempotencyKeys.run(params);
      return { deleted: { payment_intents: deletedIntents, payouts: deletedPayouts, events: deletedEvents }, jobSubjects };
    },
  };
}
