import type { Bus } from "../../bus.js";
import type * as z from "zod";
import { CARD_NUMBER_TOKEN, unknownToken, type createPayoutInput } from "./contract.js";
import { withArticle } from "../../domain/articles.js";
import { ApiError } from "../../domain/errors.js";
import type { Ids } from "../../domain/ids.js";
import { holdsCardNumber } from "../../domain/masking.js";
import { checkMoveAmount, movesFrom, statusEffects, transitionPayout, type PayoutStatus, type TestDestination } from "./machine.js";
import type { Clock } from "../../runtime/clock.js";
import type { Company } from "../companies/store.js";
import type { PageQuery } from "../../store/repos/paging.js";
import { PAYOUT_SHAPE, type PayoutResource, type PayoutRow, type PayoutsRepo } from "./store.js";
import { moveAnnouncer } from "../../services/moves.js";
import { uniqueReference } from "../../services/references.js";
import type { Work } from "../../services/unit-of-work.js";

/** What creating one takes: the contract's output, so a field added there reaches the service. */
export type CreatePayoutInput = z.output<typeof createPayoutInput>;

/** How a new payout's automatic moves are planned, and obsolete ones dropped. */
export interface PayoutPlanner {
  plan(payout: PayoutRow): void;
  cancelObsolete(payout: PayoutRow): void;
}

/** A payout as the API shows it. */
export function toPayoutResource(row: PayoutRow): PayoutResource {
  return PAYOUT_SHAPE.build(row, {});
}

/** Payout operations shared by the API, the sandbox transition call and the simulator; `deps` is read on each call (its repository is made on first use). */
export function createPayoutService(
  deps: {
    /** The payouts' own table (store.ts), read on each call: the wiring prepares its statements on first use. */
    repo: PayoutsRepo;
    clock: Clock;
    ids: Ids;
    destinations: readonly TestDestination[];
    bus: Bus;
  },
  /** Plans the automatic moves of a payout made, and drops those a manual move made obsolete. */
  planner: PayoutPlanner,
) {
  const { clock, ids, destinations } = deps;
  const moves = moveAnnouncer(deps.bus, "payout");

  function destinationFor(input: CreatePayoutInput): TestDestination {
    // The body was masked on entry: a card number arrives as "************4242" and is never kept.
    if (holdsCardNumber(input.destination_token)) throw new ApiError("invalid_request", CARD_NUMBER_TOKEN, "destination_token");
    const destination = destinations.find((d) => d.token === input.destination_token);
    if (!destination) throw new ApiError("invalid_request", unknownToken(undefined, destinations), "destination_token");
    if (destination.type !== input.destination_type) {
      throw new ApiError(
        "invalid_request",
        `destination_token ${destination.token} is ${withArticle(destination.type)} token but destination_type is "${input.destination_type}".`,
        "destination_token",
      );
    }
    return destination;
  }

  /** Makes one drawn move, records payout.<status>; amount only for a partial reversal. */
  function move(work: Work, row: PayoutRow, to: PayoutStatus, amount?: number): PayoutRow {
    const from = row.status as PayoutStatus;
    const event = moves.move(work, row.company_id, from, to, () => transitionPayout(from, to));
    // A refused amount throws before the work commits, so the move above is never said as made.
    checkMoveAmount(to, row.amount, amount);
    const updated = deps.repo.update({ ...row, status: to, ...statusEffects(to, row.amount, amount), updated_at: clock.nowIso() }, row.status);
    work.recordEvent({ companyId: row.company_id, type: event, objectId: row.id, data: toPayoutResource(updated) });
    return updated;
  }

  return {
    toResource: toPayoutResource,

    get(companyId: string, id: string): PayoutRow {
      const row = deps.repo.byId(companyId, id);
      if (!row) throw new ApiError("not_found", `No such payout: "${id}".`);
      return row;
    },

    create(work: Work, company: Company, input: CreatePayoutInput): PayoutRow {
      const destination = destinationFor(input);
      const now = clock.nowIso();
      const row = deps.repo.insert({
        id: ids.newId("po"),
        company_id: company.id,
        reference: uniqueReference(
          () => ids.newReference("POUT", clock.now()),
          (ref) => deps.repo.referenceTaken(company.id, ref),
        ),
        amount: input.amount,
        currency: input.currency,
        status: "pending",
        destination_type: destination.type,
        destination_token: destination.token,
        destination_masked: destination.masked,
        description: input.description ?? null,
        failure_reason: null,
        amount_reversed: 0,
        created_at: now,
        updated_at: now,
      });
      work.recordEvent({ companyId: company.id, type: "payout.created", objectId: row.id, data: toPayoutResource(row) });
      planner.plan(row);
      return row;
    },

    /** A move asked for through the sandbox call: automatic moves that no longer apply are dropped first. */
    moveManually(work: Work, row: PayoutRow, to: PayoutStatus, amount?: number): PayoutRow {
      const updated = move(work, row, to, amount);
      planner.cancelObsolete(updated);
      return updated;
    },

    /** The simulator's move: a no-op when the payout has already left the status it expects. */
    moveAutomatically(work: Work, payoutId: string, to: PayoutStatus): void {
      const row = deps.repo.byIdForJob(payoutId);
      if (!row || !movesFrom(row.status as PayoutStatus).includes(to)) return;
      move(work, row, to);
    },

    list: (companyId: string, query: PageQuery) => deps.repo.list(companyId, query),
    seqOf: (companyId: string, id: string) => deps.repo.seqOf(companyId, id),
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
