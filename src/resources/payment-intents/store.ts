import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { CAPTURE_METHODS, PAYMENT_INTENT_STATES } from "./machine.js";
import { amountSchema, currencySchema } from "../../domain/validation.js";
import type { Db } from "../../store/db.js";
import { fieldsFor, resourceShape } from "../../store/resource-shape.js";
import { objectRows } from "../../store/repos/object-rows.js";
import { rowInserter } from "../../store/repos/row-inserter.js";
import { pagedLister, type PageQuery } from "../../store/repos/paging.js";

export interface PaymentIntentRow {
  seq: number;
  id: string;
  company_id: string;
  reference: string;
  amount: number;
  currency: string;
  description: string | null;
  capture_method: string;
  state: string;
  card_last4: string | null;
  card_brand: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type NewPaymentIntentRow = Omit<PaymentIntentRow, "seq">;

/** What a payment intent's JSON needs besides its row: where the checkout page is served. */
export interface PaymentIntentParams {
  checkout_base: string;
}

const field = fieldsFor<PaymentIntentRow, PaymentIntentParams>();

/** The card shown on a payment intent, by the API and the checkout page alike (it needs no parameters). */
export const PAYMENT_INTENT_CARD = fieldsFor<PaymentIntentRow>().objectOrNull({ last4: "card_last4", brand: "card_brand" });

/** A payment intent as the API shows it, member for member (docs/api.md). */
export const PAYMENT_INTENT_SHAPE = resourceShape({
  id: field.column("id", () => idOf("pi")),
  object: field.constant("payment_intent"),
  reference: field.column("reference", () => z.string().regex(/^PAY-[0-9A-Z]{10}$/)),
  amount: field.column("amount", () => amountSchema),
  currency: field.column("currency", () => currencySchema),
  description: field.column("description", () => z.string().nullable()),
  capture_method: field.column("capture_method", () => z.enum(CAPTURE_METHODS)),
  state: field.column("state", () => z.enum(PAYMENT_INTENT_STATES)),
  card: PAYMENT_INTENT_CARD,
  failure_reason: field.column("failure_reason", () => z.string().nullable()),
  checkout_url: field.joined("checkout_base", "/checkout/", "id"),
  created_at: field.column("created_at", () => timestampSchema),
  updated_at: field.column("updated_at", () => timestampSchema),
});

export type PaymentIntentResource = ReturnType<typeof PAYMENT_INTENT_SHAPE.build>;

export function createPaymentIntentsRepo(db: Db) {
  const insert = rowInserter<PaymentIntentRow>(db, "payment_intents", {
    id: true,
    company_id: true,
    reference: true,
    amount: true,
    currency: true,
    description: true,
    capture_method: true,
    state: true,
    card_last4: true,
    card_brand: true,
    failure_reason: true,
    created_at: true,
    updated_at: true,
  });
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
