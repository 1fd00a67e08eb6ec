import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { checkMoveAmount, DESTINATION_TYPES, PAYOUT_STATUSES, statusEffects, type PayoutStatus } from "./machine.js";
import { amountSchema, currencySchema, descriptionSchema } from "../../domain/validation.js";
import type { Db } from "../../store/db.js";
import { fieldsFor, resourceShape } from "../../store/resource-shape.js";
import { by, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import type { ColumnCheck, SnapshotRow } from "../../store/snapshot-rows.js";
import type { SnapshotSources } from "../../store/snapshot-sources.js";
import { col, defineTable, handedIn, type RowOf } from "../../store/table.js";
import { objectRows } from "../../store/repos/object-rows.js";
import { rowInserter } from "../../store/repos/row-inserter.js";
import { pagedLister, type PageQuery } from "../../store/repos/paging.js";

/** A payout's destination: a test token of its type, shown as that token shows (the shipped test data, handed in). */
const destinationOf = (sources: SnapshotSources, row: SnapshotRow) =>
  sources.testDestinations.find((d) => d.token === row.destination_token && d.type === row.destination_type);

/** What a payout's status sets besides itself (machine.ts): its failure reason, and the amount reversed. */
const failureOfStatus: ColumnCheck = (value, row) => {
  if (typeof row.amount !== "number") return undefined;
  const expected = statusEffects(row.status as PayoutStatus, row.amount, undefined).failure_reason;
  return value === expected ? undefined : `must be ${expected === null ? "NULL" : JSON.stringify(expected)} in status ${String(row.status)}`;
};
const reversedOfStatus: ColumnCheck = (value, row) => {
  if (typeof row.amount !== "number") return undefined;
  if (row.status === "partially_reversed") {
    try {
      checkMoveAmount("partially_reversed", row.amount, value as number);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
  const expected = statusEffects(row.status as PayoutStatus, row.amount, undefined).amount_reversed;
  return value === expected ? undefined : `must be ${expected} in status ${String(row.status)}`;
};

export const PAYOUTS = defineTable(
  "payouts",
  {
    seq: col.seq(seq),
    id: col.text({ schema: () => idOf("po") }, "UNIQUE"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    reference: col.text({ schema: () => z.string().regex(/^POUT-[0-9A-Z]{10}$/) }),
    amount: col.integer({ schema: () => amountSchema }),
    currency: col.text({ schema: () => currencySchema }),
    status: col.text({ schema: () => z.enum(PAYOUT_STATUSES) }),
    destination_type: col.text({ schema: () => z.enum(DESTINATION_TYPES) }),
    destination_token: col.text({
      check: handedIn(
        (sources) => (_value, row) =>
          destinationOf(sources, row)
            ? undefined
            : `must be a test token of destination_type ${String(row.destination_type)} (${sources.testDestinations.map((d) => d.token).join(", ")})`,
      ),
    }),
    destination_masked: col.text({
      schema: () => z.string(),
      also: handedIn((sources) => (value, row) => {
        const destination = destinationOf(sources, row);
        return destination === undefined || destination.masked === value ? undefined : `must be how its token shows (${JSON.stringify(destination.masked)})`;
      }),
    }),
    description: col.nullableText({ schema: () => z.string().nullable(), also: by(() => descriptionSchema.nullable()) }),
    failure_reason: col.nullableText({ schema: () => z.enum(["destination_rejected", "returned_by_bank"]).nullable(), also: failureOfStatus }),
    amount_reversed: col.integer({ schema: () => z.number().int().min(0), also: reversedOfStatus }, "DEFAULT 0"),
    created_at: col.text({ schema: () => timestampSchema, also: timestamp }),
    updated_at: col.text({ schema: () => timestampSchema, also: timestamp }),
  },
  { key: "id", constraints: ["UNIQUE (company_id, reference)"] },
);

export type PayoutRow = RowOf<typeof PAYOUTS.columns>;

const field = fieldsFor<PayoutRow>(PAYOUTS);

/** A payout as the API shows it, member for member (docs/api.md); its destination token is never shown. */
export const PAYOUT_SHAPE = resourceShape({
  id: field.column("id"),
  object: field.constant("payout"),
  reference: field.column("reference"),
  amount: field.column("amount"),
  currency: field.column("currency"),
  status: field.column("status"),
  destination_type: field.column("destination_type"),
  destination_masked: field.column("destination_masked"),
  description: field.column("description"),
  failure_reason: field.column("failure_reason"),
  amount_reversed: field.column("amount_reversed"),
  created_at: field.column("created_at"),
  updated_at: field.column("updated_at"),
});

export type PayoutResource = ReturnType<typeof PAYOUT_SHAPE.build>;

export function createPayoutsRepo(db: Db) {
  const insert = rowInserter(db, PAYOUTS);
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
