/** @jsxImportSource hono/jsx */
import { formatAmount } from "../../domain/money.js";
import { movesFrom, type PayoutStatus } from "./machine.js";
import type { PayoutResource } from "./contract.js";
import { payoutService, transitionPayout } from "./operations.js";
import { baseOf, companyOf, given, linkTo, type DashboardApp, type DashboardKit } from "../../server/dashboard/kit.js";
import { eventsAbout, PAGE_SIZE } from "../../server/dashboard/reads.js";
import { EventsTable } from "../../server/dashboard/views/event-parts.js";
import { Csrf, ListCard, PageHead, Pill, Time } from "../../server/dashboard/views/parts.js";

/** A typed amount as the API would receive it: a number when it reads as one, else the text (refused with its reason). */
function amountField(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text.trim());
  return Number.isFinite(value) ? value : text;
}

/** The drawn moves from the payout's status, one button each (posting to `action`); a partial reversal asks its amount. */
function MoveButtons({ payout, csrf, action }: { payout: PayoutResource; csrf: string; action: string }) {
  const moves = movesFrom(payout.status as PayoutStatus);
  if (moves.length === 0) return <p class="muted">"{payout.status}" is final: no move is drawn from it.</p>;
  return (
    <div class="actions">
      {moves.map((to) =>
        to === "partially_reversed" ? (
          <form class="actions" method="post" action={action}>
            <Csrf token={csrf} />
            <input type="hidden" name="to" value={to} />
            <label for="partial-amount">
              Amount to reverse <span class="hint">(minor units)</span>
            </label>
            <input id="partial-amount" type="number" name="amount" min="1" max={String(payout.amount - 1)} required />
            <button class="btn" type="submit">
              Move to partially reversed
            </button>
          </form>
        ) : (
          <form class="inline" method="post" action={action}>
            <Csrf token={csrf} />
            <input type="hidden" name="to" value={to} />
            <button class="btn" type="submit">
              Move to {to.replace(/_/g, " ")}
            </button>
          </form>
        ),
      )}
    </div>
  );
}

/** Payouts, newest first, and one payout with its events and its drawn moves as buttons. */
export function payoutsPage(app: DashboardApp, { deps, page, act, call, form: kitForm }: DashboardKit) {
  const { events } = deps;
  const payouts = payoutService({ deps });

  app.get("/payouts", (c) => {
    const company = companyOf(c);
    const after = c.req.query("starting_after");
    const beforeSeq = after === undefined ? undefined : payouts.seqOf(company.id, after);
    const list = payouts.list(company.id, { limit: PAGE_SIZE, beforeSeq }).json.map((json) => JSON.parse(json) as PayoutResource);
    const body = (
      <>
        <PageHead title="Payouts" lead="Newest first. Open one to move it along the drawn transitions." />
        <ListCard
          label="Payouts"
          empty={
            <>
              No payouts yet. Create one with <code>POST /v1/payouts</code>.
            </>
          }
          head={
            <>
              <th scope="col">Payout</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col" class="hide-narrow">
                Destination
              </th>
              <th scope="col" class="hide-narrow">
                Created
              </th>
            </>
          }
          base={linkTo(c, "/payouts")}
          rows={list}
          size={PAGE_SIZE}
        >
          {list.map((payout) => (
            <tr>
              <td>
                <a class="mono" href={linkTo(c, `/payouts/${payout.id}`)}>
                  {payout.reference}
                </a>
              </td>
              <td class="num" data-label="Amount">
                {formatAmount(payout.amount, payout.currency)}
              </td>
              <td data-label="Status">
                <Pill value={payout.status} />
              </td>
              <td class="hide-narrow">
                {payout.destination_type} <span class="mono">{payout.destination_masked}</span>
              </td>
              <td class="time hide-narrow">
                <Time iso={payout.created_at} />
              </td>
            </tr>
          ))}
        </ListCard>
      </>
    );
    return page(c, { title: "Payouts", section: "payouts" }, body);
  });

  app.get("/payouts/:id", (c) => {
    const company = companyOf(c);
    const payout = payouts.toResource(payouts.get(company.id, c.req.param("id")));
    const body = (
      <>
        <PageHead title={payout.reference} lead={<span class="mono">{payout.id}</span>} back={{ href: linkTo(c, "/payouts"), label: "Payouts" }} />
        <div class="grid two">
          <section class="card">
            <p class="amount-big">{formatAmount(payout.amount, payout.currency)}</p>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <Pill value={payout.status} />
              </dd>
              <dt>Destination</dt>
              <dd>
                {payout.destination_type} <span class="mono">{payout.destination_masked}</span>
              </dd>
              <dt>Description</dt>
              <dd>{payout.description ?? <span class="muted">—</span>}</dd>
              <dt>Failure</dt>
              <dd>{payout.failure_reason ?? <span class="muted">—</span>}</dd>
              <dt>Reversed</dt>
              <dd>{formatAmount(payout.amount_reversed, payout.currency)}</dd>
              <dt>Created</dt>
              <dd>
                <Time iso={payout.created_at} />
              </dd>
              <dt>Updated</dt>
              <dd>
                <Time iso={payout.updated_at} />
              </dd>
            </dl>
          </section>
          <section class="card">
            <h2>Move this payout</h2>
            <p class="lead">
              Each button makes one drawn move, exactly as <code>POST /v1/sandbox/payouts/:id/transition</code>, and emits its event.
            </p>
            <div class="attempts">
              <MoveButtons payout={payout} csrf={c.get("session").csrf} action={linkTo(c, `/payouts/${payout.id}/transition`)} />
            </div>
          </section>
        </div>
        <section class="card flush">
          <h2>Events</h2>
          <EventsTable base={baseOf(c)} events={eventsAbout(events, company.id, payout.id)} />
        </section>
      </>
    );
    return page(c, { title: payout.reference, section: "payouts" }, body);
  });

  /** `POST /v1/sandbox/payouts/:id/transition`, from a move button. */
  app.post("/payouts/:id/transition", async (c) => {
    const id = c.req.param("id");
    const form = await kitForm(c);
    return act(c, `/payouts/${id}`, async () => {
      const moved = await call(c, transitionPayout, { params: { id }, body: given({ to: form.get("to"), amount: amountField(form.get("amount")) }) });
      return `Moved to ${moved.status.replace(/_/g, " ")}.`;
    });
  });
}
