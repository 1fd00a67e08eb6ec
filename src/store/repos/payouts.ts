import type { Db } from "../open.js";
import { objectRows } from "./object-rows.js";
import { pagedLister, type PageQuery } from "./paging.js";

export interface PayoutRow {
  seq: number;
  id: string;
  company_id: string;
  reference: string;
  amount: number;
  currency: string;
  status: string;
  destination_type: string;
  destination_token: string;
  destination_masked: string;
  description: string | null;
  failure_reason: string | null;
  amount_reversed: number;
  created_at: string;
  updated_at: string;
}

/**
 * A listed payout's JSON text, as `toPayoutResource` shows one read by id
 * (test/server/list-json.test.ts holds the two to the same bytes).
 */
const PAYOUT_JSON = `json_object(
  'id', id, 'object', 'payout', 'reference', reference, 'amount', amount, 'currency', currency, 'status', status,
  'destination_type', destination_type, 'destination_masked', destination_masked, 'description', description,
  'failure_reason', failure_reason, 'amount_reversed', amount_reversed, 'created_at', created_at, 'updated_at', updated_at)`;

export function createPayoutsRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO payouts (id, company_id, reference, amount, currency, status, destination_type, destination_token,
                         destination_masked, description, failure_reason, amount_reversed, created_at, updated_at)
    VALUES (@id, @company_id, @reference, @amount, @currency, @status, @destination_type, @destination_token,
            @destination_masked, @description, @failure_reason, @amount_reversed, @created_at, @updated_at)
    RETURNING *`);
  const byId = objectRows<PayoutRow>(db.prepare("SELECT * FROM payouts WHERE company_id = ? AND id = ?"));
  const byIdAnyCompany = db.prepare("SELECT * FROM payouts WHERE id = ?");
  const referenceTaken = db.prepare("SELECT 1 FROM payouts WHERE company_id = ? AND reference = ?").pluck();
  // The status it moves from is part of the WHERE: a concurrent move can never be overwritten.
  const update = db.prepare(`
    UPDATE payouts
       SET status = @status, failure_reason = @failure_reason, amount_reversed = @amount_reversed, updated_at = @updated_at
     WHERE id = @id AND status = @from_status
    RETURNING *`);
  const pages = pagedLister(db, { table: "payouts", filterColumn: "status", json: PAYOUT_JSON });

  return {
    insert: (row: Omit<PayoutRow, "seq">) => insert.get(row) as PayoutRow,
    byId: (companyId: string, id: string) => byId.get(companyId, id),
    /** For the simulator's own jobs only: a job carries the id of a payout it made itself. */
    byIdForJob: (id: string) => byIdAnyCompany.get(id) as PayoutRow | undefined,
    referenceTaken: (companyId: string, reference: string) => referenceTaken.get(companyId, reference) === 1,
    update(row: PayoutRow, fromStatus: string): PayoutRow {
      const updated = update.get({ ...row, from_status: fromStatus }) as PayoutRow | undefined;
      if (!updated) throw new Error(`payout ${row.id} was not in status ${fromStatus}`);
      return updated;
    },
    list: (companyId: string, query: PageQuery) => pages.list(companyId, query),
    seqOf: (companyId: string, id: string) => pages.seqOf(companyId, id),
  };
}
