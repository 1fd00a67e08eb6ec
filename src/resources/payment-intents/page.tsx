/** @jsxImportSource hono/jsx */
import { formatAmount } from "../../domain/money.js";
import type { PaymentIntentResource } from "./contract.js";
import { paymentIntentService } from "./operations.js";
import { cardLabel } from "../../server/card-label.js";
import { baseOf, companyOf, linkTo, type DashboardApp, type DashboardKit } from "../../server/dashboard/kit.js";
import { eventsAbout, PAGE_SIZE } from "../../server/dashboard/reads.js";
import { EventsTable } from "../../server/dashboard/views/event-parts.js";
import { ListCard, PageHead, Pill, Time } from "../../server/dashboard/views/parts.js";

/** Payment intents, newest first, and one intent with its events and checkout link. */
export function paymentIntentsPage(app: DashboardApp, { deps, page }: DashboardKit) {
  const { events } = deps;
  const paymentIntents = paymentIntentService({ deps });

  app.get("/payment_intents", (c) => {
    const company = companyOf(c);
    const after = c.req.query("starting_after");
    const beforeSeq = after === undefined ? undefined : paymentIntents.seqOf(company.id, after);
    const intents = paymentIntents.list(company.id, { limit: PAGE_SIZE, beforeSeq }).json.map((json) => JSON.parse(json) as PaymentIntentResource);
    const body = (
      <>
        <PageHead title="Payment intents" lead="Newest first. Open one to see its events and its checkout page." />
        <ListCard
          label="Payment intents"
          empty={
            <>
              No payment intents yet. Create one with <code>POST /v1/payment_intents</code>.
            </>
          }
          head={
            <>
              <th scope="col">Payment</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">State</th>
              <th scope="col" class="hide-narrow">
                Created
              </th>
            </>
          }
          base={linkTo(c, "/payment_intents")}
          rows={intents}
          size={PAGE_SIZE}
        >
          {intents.map((intent) => (
            <tr>
              <td>
                <a class="mono" href={linkTo(c, `/payment_intents/${intent.id}`)}>
                  {intent.reference}
                </a>
                {intent.description ? <div class="muted">{intent.description}</div> : null}
              </td>
              <td class="num" data-label="Amount">
                {formatAmount(intent.amount, intent.currency)}
              </td>
              <td data-label="State">
                <Pill value={intent.state} />
              </td>
              <td class="time hide-narrow">
                <Time iso={intent.created_at} />
              </td>
            </tr>
          ))}
        </ListCard>
      </>
    );
    return page(c, { title: "Payment intents", section: "payment_intents" }, body);
  });

  app.get("/payment_intents/:id", (c) => {
    const company = companyOf(c);
    const intent = paymentIntents.toResource(paymentIntents.get(company.id, c.req.param("id")));
    const body = (
      <>
        <PageHead
          title={intent.reference}
          lead={<span class="mono">{intent.id}</span>}
          back={{ href: linkTo(c, "/payment_intents"), label: "Payment intents" }}
        >
          <a class="btn" href={intent.checkout_url}>
            Open checkout page
          </a>
        </PageHead>
        <section class="card">
          <p class="amount-big">{formatAmount(intent.amount, intent.currency)}</p>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <Pill value={intent.state} />
            </dd>
            <dt>Capture</dt>
            <dd>{intent.capture_method}</dd>
            <dt>Description</dt>
            <dd>{intent.description ?? <span class="muted">—</span>}</dd>
            <dt>Card</dt>
            <dd>{intent.card ? cardLabel(intent.card) : <span class="muted">none yet</span>}</dd>
            <dt>Failure</dt>
            <dd>{intent.failure_reason ?? <span class="muted">—</span>}</dd>
            <dt>Created</dt>
            <dd>
              <Time iso={intent.created_at} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <Time iso={intent.updated_at} />
            </dd>
          </dl>
        </section>
        <section class="card flush">
          <h2>Events</h2>
          <EventsTable base={baseOf(c)} events={eventsAbout(events, company.id, intent.id)} />
        </section>
      </>
    );
    return page(c, { title: intent.reference, section: "payment_intents" }, body);
  });
}
