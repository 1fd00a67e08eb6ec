/** @jsxImportSource hono/jsx */
import { advanceClock } from "../../operations/sandbox.js";
import { given, linkTo, type DashboardApp, type DashboardKit } from "../kit.js";
import { Csrf, PageHead, Time } from "../views/parts.js";

/** The advance buttons docs/dashboard.md asks for. */
const ADVANCES = [
  { seconds: 30, label: "+30 s", spoken: "30 seconds" },
  { seconds: 600, label: "+10 min", spoken: "10 minutes" },
  { seconds: 3600, label: "+1 h", spoken: "1 hour" },
  { seconds: 86_400, label: "+1 d", spoken: "1 day" },
] as const;

/** The instance's clock: now, offset, scale, and advance buttons (the clock is shared by every company). */
export function clockPage(app: DashboardApp, { deps, page, act, call, form: readForm }: DashboardKit) {
  const { clock } = deps;

  app.get("/clock", (c) => {
    const csrf = c.get("session").csrf;
    const body = (
      <>
        <PageHead title="Clock" lead="All time in paysim reads this clock: timestamps, webhook retries, payout moves, idempotency windows." />
        <div class="grid two">
          <section class="card">
            <h2>Now</h2>
            <p class="clock-now">
              <Time iso={clock.nowIso()} />
            </p>
            <dl class="facts attempts">
              <dt>Offset</dt>
              <dd>{clock.offsetSeconds()} s ahead of real time</dd>
              <dt>Time scale</dt>
              <dd>× {clock.timeScale}</dd>
            </dl>
          </section>
          <section class="card">
            <h2>Advance</h2>
            <p class="lead">
              Work that falls due (payout moves, webhook retries) is done before the page comes back. The clock is shared by every company of this paysim and
              never runs backwards.
            </p>
            <div class="actions attempts">
              {ADVANCES.map(({ seconds, label, spoken }) => (
                <form class="inline" method="post" action={linkTo(c, "/clock/advance")}>
                  <Csrf token={csrf} />
                  <input type="hidden" name="seconds" value={String(seconds)} />
                  <button class="btn primary" type="submit" aria-label={`Advance the clock by ${spoken}`}>
                    {label}
                  </button>
                </form>
              ))}
            </div>
          </section>
        </div>
      </>
    );
    return page(c, { title: "Clock", section: "clock" }, body);
  });

  /** `POST /v1/sandbox/clock/advance`, from a button. */
  app.post("/clock/advance", async (c) => {
    const form = await readForm(c);
    return act(c, "/clock", async () => {
      const text = form.get("seconds");
      const answer = await call(c, advanceClock, { body: given({ seconds: text === undefined ? undefined : Number(text) }) });
      return `Advanced ${Number(text)} s: it is now ${answer.now}.`;
    });
  });
}
