import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { CARD_BRANDS } from "../../domain/card.js";
import { CAPTURE_METHODS, PAYMENT_INTENT_STATES } from "./machine.js";
import { amountSchema, currencySchema, descriptionSchema } from "../../domain/validation.js";
import type { Db } from "../../store/db.js";
import { fieldsFor, resourceShape } from "../../store/resource-shape.js";
import { by, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import type { ColumnCheck } from "../../store/snapshot-rows.js";
import { col, defineTable, handedIn, type RowOf } from "../../store/table.js";
import { objectRows } from "../../store/repos/object-rows.js";
import { rowInserter } from "../../store/repos/row-inserter.js";
import { pagedLister, type PageQuery } from "../../store/repos/paging.js";

/**
 * A payment intent's card: both halves or neither, the last four digits and a brand paysim names.
 * An authorization gives the card (and, when it fails, its reason): a created intent has none yet,
 * an authorized, captured or failed one has it; a canceled one may have either.
 */
const CARDLESS_STATES = new Set(["created"]);
const CARDED_STATES = new Set(["authorized", "captured", "failed"]);
const last4 = by(() => z.string().regex(/^[0-9]{4}$/));
const cardLast4: ColumnCheck = (value, row, known) => {
  if (value !== null) {
    if (CARDLESS_STATES.has(String(row.state))) return `must be NULL in state ${String(row.state)}: only an authorization gives a card`;
    return last4(value, row, known);
  }
  if (row.card_brand !== null) return "must be set when card_brand is";
  return CARDED_STATES.has(String(row.state)) ? `must be set in state ${String(row.state)}: the authorization gave a card` : undefined;
};
const brand = by(() => z.enum(CARD_BRANDS));
const cardBrand: ColumnCheck = (value, row, known) =>
  value === null ? (row.card_last4 === null ? undefined : "must be set when card_last4 is") : brand(value, row, known);
/** Only a failed intent has a failure reason, one a test card fails with (the shipped test data, handed in). */
const intentFailure = handedIn((sources): ColumnCheck => {
  const failures = [...new Set(sources.testCards.flatMap((card) => (card.failure_reason === null ? [] : [card.failure_reason])))];
  const cardFailure = by(() => z.enum(failures as [string, ...string[]]));
  return (value, row, known) =>
    row.state === "failed"
      ? cardFailure(value, row, known)
      : value === null
        ? undefined
        : `must be NULL in state ${String(row.state)}: only a failed payment intent has a failure reason`;
});

export const PAYMENT_INTENTS = defineTable(
  "payment_intents",
  {
    seq: col.seq(seq),
    id: col.text({ schema: () => idOf("pi") }, "UNIQUE"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    reference: col.text({ schema: () => z.string().regex(/^PAY-[0-9A-Z]{10}$/) }),
    amount: col.integer({ schema: () => amountSchema }),
    currency: col.text({ schema: () => currencySchema }),
    description: col.nullableText({ schema: () => z.string().nullable(), also: by(() => descriptionSchema.nullable()) }),
    capture_method: col.text({ schema: () => z.enum(CAPTURE_METHODS) }),
    state: col.text({ schema: () => z.enum(PAYMENT_INTENT_STATES) }),
    card_last4: col.nullableText({ check: cardLast4 }),
    card_brand: col.nullableText({ check: cardBrand }),
    failure_reason: col.nullableText({ schema: () => z.string().nullable(), also: intentFailure }),
    created_at: col.text({ schema: () => timestampSchema, also: timestamp }),
    updated_at: col.text({ schema: () => timestampSchema, also: timestamp }),
  },
  { key: "id", constraints: ["UNIQUE (company_id, reference)"] },
);

export type PaymentIntentRow = RowOf<typeof PAYMENT_INTENTS.columns>;

export type NewPaymentIntentRow = Omit<PaymentIntentRow, "seq">;

/** What a payment intent's JSON needs besides its row: where the checkout page is served. */
export interface PaymentIntentParams {
  checkout_base: string;
}

const field = fieldsFor<PaymentIntentRow, PaymentIntentParams>(PAYMENT_INTENTS);

/** The card shown on a payment intent, by the API and the checkout page alike (it needs no parameters). */
export const PAYMENT_INTENT_CARD = fieldsFor<PaymentIntentRow>().objectOrNull({ last4: "card_last4", brand: "card_brand" });

/** A payment intent as the API shows it, member for member (docs/api.md). */
export const PAYMENT_INTENT_SHAPE = resourceShape({
  id: field.column("id"),
  object: field.constant("payment_intent"),
  reference: field.column("reference"),
  amount: field.column("amount"),
  currency: field.column("currency"),
  description: field.column("description"),
  capture_method: field.column("capture_method"),
  state: field.column("state"),
  card: PAYMENT_INTENT_CARD,
  failure_reason: field.column("failure_reason"),
  checkout_url: field.joined("checkout_base", "/checkout/", "id"),
  created_at: field.column("created_at"),
  updated_at: field.column("updated_at"),
});

export type PaymentIntentResource = ReturnType<typeof PAYMENT_INTENT_SHAPE.build>;

export function createPaymentIntentsRepo(db: Db) {
  const insert = rowInserter(db, PAYMENT_INTENTS);
  const byId = objectRows<PaymentIntentRow>(db.prepare("SELECT * FROM payment_intents WHERE company_id = ? AND id = ?"));
  const byCheckoutId = db.prepare("SELECT * FROM payment_intents WHERE id = ?");
  const referenceTaken = db.prepare("SELECT 1 FROM payment_intents WHERE company_id = ? AND reference = ?").pluck();
  // The state it moves from is part of the WHERE: a concurrent move can never be overwritten.
  const update = db.prepare(`
    UPDATE payment_intents
       SET state = @state, card_last4 = @card_last4, card_brand = @card_brand,
           failure_reason = @failure_reason, updated_at = @updated_at
     WHERE company_id = @company_id AND id = @id AND state = @from_state
    RETURNING *`);
  const pages = pagedLister(db, { table: "payment_intents", filterColumn: "state", json: PAYMENT_INTENT_SHAPE.sqlJson });

  return {
    insert: (row: NewPaymentIntentRow) => insert(row),
    byId: (companyId: string, id: string) => byId.get(companyId, id),
    /** The hosted checkout page has no key: its unguessable id in the URL is the capability. */
    byCheckoutId: (id: string) => byCheckoutId.get(id) as PaymentIntentRow | undefined,
    referenceTaken: (companyId: string, reference: string) => referenceTaken.get(companyId, reference) === 1,
    update(row: PaymentIntentRow, fromState: string): PaymentIntentRow {
      const updated = update.get({ ...row, from_state: fromState }) as PaymentIntentRow | undefined;
      if (!updated) throw new Error(`payment intent ${row.id} was not in state ${fromState}`);
      return updated;
    },
    /** A page of the company's payment intents as JSON text; `checkoutBase` starts their `checkout_url`. */
    list: (companyId: string, query: PageQuery, checkoutBase: string) => pages.list(companyId, query, { checkout_base: checkoutBase }),
    seqOf: (companyId: string, id: string) => pages.seqOf(companyId, id),
  };
}

/** The payment intents' statements (the service's `repo`). */
export type PaymentIntentsRepo = ReturnType<typeof createPaymentIntentsRepo>;
