import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { DESTINATION_TYPES, PAYOUT_STATUSES } from "./machine.js";
import { amountSchema, currencySchema } from "../../domain/validation.js";
import type { Db } from "../../store/db.js";
import { fieldsFor, resourceShape } from "../../store/resource-shape.js";
import { objectRows } from "../../store/repos/object-rows.js";
import { rowInserter } from "../../store/repos/row-inserter.js";
import { pagedLister, type PageQuery } from "../../store/repos/paging.js";

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

const field = fieldsFor<PayoutRow>();

/** A payout as the API shows it, member for member (docs/api.md); its destination token is never shown. */
export const PAYOUT_SHAPE = resourceShape({
  id: field.column("id", () => idOf("po")),
  object: field.constant("payout"),
  reference: field.column("reference", () => z.string().regex(/^POUT-[0-9A-Z]{10}$/)),
  amount: field.column("amount", () => amountSchema),
  currency: field.column("currency", () => currencySchema),
  status: field.column("status", () => z.enum(PAYOUT_STATUSES)),
  destination_type: field.column("destination_type", () => z.enum(DESTINATION_TYPES)),
  destination_masked: field.column("destination_masked", () => z.string()),
  description: field.column("description", () => z.string().nullable()),
  failure_reason: field.column("failure_reason", () => z.enum(["destination_rejected", "returned_by_bank"]).nullable()),
  amount_reversed: field.column("amount_reversed", () => z.number().int().min(0)),
  created_at: field.column("created_at", () => timestampSchema),
  updated_at: field.column("updated_at", () => timestampSchema),
});

export type PayoutResource = ReturnType<typeof PAYOUT_SHAPE.build>;

export function createPayoutsRepo(db: Db) {
  const insert = rowInserter<PayoutRow>(db, "payouts", {
    id: true,
    company_id: true,
    reference: true,
    amount: true,
    currency: true,
    status: true,
    destination_type: true,
    destination_token: true,
    destination_masked: true,
    description: true,
    failure_reason: true,
    amount_reversed: true,
    created_at: true,
    updated_at: true,
  });
  const byId = objectRows<PayoutRow>(db.prepare("SELECT * FROM payouts WHERE company_id = ? AND id = ?"));
  const byIdAnyCompany = db.prepare("SELECT * FROM payouts WHERE id = ?");
  const referenceTaken = db.prepare("SELECT 1 FROM payouts WHERE company_id = ? AND reference = ?").pluck();
  // The status it moves from is part of the WHERE: a concurrent move can never be overwritten.
  const update = db.prepare(`
    UPDATE payouts
       SET status = @status, failure_reason = @failure_reason, amount_reversed = @amount_reversed, updated_at = @updated_at
     WHERE company_id = @company_id AND id = @id AND status = @from_status
    RETURNING *`);
  const pages = pagedLister(db, { table: "payouts", filterColumn: "status", json: PAYOUT_SHAPE.sqlJson });

  return {
    insert: (row: Omit<PayoutRow, "seq">) => insert(row),
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

/** The payouts' statements (the service's `repo`). */
export type PayoutsRepo = ReturnType<typeof createPayoutsRepo>;
