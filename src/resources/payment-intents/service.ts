import type { Bus } from "../../bus.js";
import type * as z from "zod";
import { unknownPaymentMethod, type createPaymentIntentInput } from "./contract.js";
import { ApiError } from "../../domain/errors.js";
import type { Ids } from "../../domain/ids.js";
import { PAST, transitionPaymentIntent, type PaymentIntentState, type PaymentIntentTrigger } from "./machine.js";
import { outcomeForPaymentMethod, type TestCard } from "../../domain/test-cards.js";
import type { Clock } from "../../runtime/clock.js";
import type { Company } from "../companies/store.js";
import type { PageQuery } from "../../store/repos/paging.js";
import { PAYMENT_INTENT_SHAPE, type PaymentIntentResource, type PaymentIntentRow, type PaymentIntentsRepo } from "./store.js";
import { moveAnnouncer } from "../../services/moves.js";
import { uniqueReference } from "../../services/references.js";
import type { Work } from "../../services/unit-of-work.js";

/** What creating one takes: the contract's output, so a field added there reaches the service. */
export type CreatePaymentIntentInput = z.output<typeof createPaymentIntentInput>;

export interface PaymentIntentDeps {
  /** The payment intents' own table (store.ts), read on each call: the wiring prepares its statements on first use. */
  repo: PaymentIntentsRepo;
  clock: Clock;
  testCards: readonly TestCard[];
  baseUrl: () => string;
  ids: Ids;
  bus: Bus;
}

/** A card presented for an intent: what authorize and the checkout page both pass. */
export interface PresentedCard {
  card: { last4: string; brand: string };
  failure_reason: string | null;
}

/** Payment-intent operations shared by the API routes and the checkout page. */
export function createPaymentIntentService(deps: PaymentIntentDeps) {
  const { clock, testCards, baseUrl, ids, bus } = deps;
  const moves = moveAnnouncer(bus, "payment_intent");
  function toResource(row: PaymentIntentRow): PaymentIntentResource {
    return PAYMENT_INTENT_SHAPE.build(row, { checkout_base: baseUrl() });
  }

  function get(companyId: string, id: string): PaymentIntentRow {
    const row = deps.repo.byId(companyId, id);
    if (!row) throw new ApiError("not_found", `No such payment intent: "${id}".`);
    return row;
  }

  /** Applies one table move to `row`, saves it and records its event. */
  function move(work: Work, row: PaymentIntentRow, trigger: PaymentIntentTrigger, changes: Partial<PaymentIntentRow> = {}) {
    const from = row.state as PaymentIntentState;
    const { to, event } = moves.move(work, row.company_id, from, PAST[trigger], () => transitionPaymentIntent(from, trigger));
    const updated = deps.repo.update({ ...row, ...changes, state: to, updated_at: clock.nowIso() }, row.state);
    work.recordEvent({ companyId: row.company_id, type: event, objectId: row.id, data: toResource(updated) });
    return updated;
  }

  return {
    toResource,
    get,

    create(work: Work, company: Company, input: CreatePaymentIntentInput): PaymentIntentRow {
      const now = clock.nowIso();
      const row = deps.repo.insert({
        id: ids.newId("pi"),
        company_id: company.id,
        reference: uniqueReference(
          () => ids.newReference("PAY", clock.now()),
          (ref) => deps.repo.referenceTaken(company.id, ref),
        ),
        amount: input.amount,
        currency: input.currency ?? company.currency,
        description: input.description ?? null,
        capture_method: input.capture_method ?? "automatic",
        state: "created",
        card_last4: null,
        card_brand: null,
        failure_reason: null,
        created_at: now,
        updated_at: now,
      });
      work.recordEvent({ companyId: company.id, type: "payment_intent.created", objectId: row.id, data: toResource(row) });
      return row;
    },

    /** Resolves a test payment method to the card it stands for; 400 when unknown. */
    cardForPaymentMethod(paymentMethod: string): PresentedCard {
      const outcome = outcomeForPaymentMethod(testCards, paymentMethod);
      if (!outcome) throw new ApiError("invalid_request", unknownPaymentMethod(paymentMethod, testCards), "payment_method");
      return outcome;
    },

    /**
     * Presents a card: a good one authorizes (and captures at once when the
     * capture method is automatic), a declining one fails the intent with its reason.
     */
    authorize(work: Work, row: PaymentIntentRow, presented: PresentedCard): PaymentIntentRow {
      const card = { card_last4: presented.card.last4, card_brand: presented.card.brand };
      if (presented.failure_reason) {
        return move(work, row, "fail", { ...card, failure_reason: presented.failure_reason });
      }
      const authorized = move(work, row, "authorize", card);
      return authorized.capture_method === "automatic" ? move(work, authorized, "capture") : authorized;
    },

    capture: (work: Work, row: PaymentIntentRow) => move(work, row, "capture"),
    cancel: (work: Work, row: PaymentIntentRow) => move(work, row, "cancel"),

    list: (companyId: string, query: PageQuery) => deps.repo.list(companyId, query, baseUrl()),
    seqOf: (companyId: string, id: string) => deps.repo.seqOf(companyId, id),
    /** The intent a hosted checkout page shows, by the id in its URL, whichever company's it is. */
    byCheckoutId: (checkoutId: string) => deps.repo.byCheckoutId(checkoutId),
  };
}

export type PaymentIntentService = ReturnType<typeof createPaymentIntentService>;
