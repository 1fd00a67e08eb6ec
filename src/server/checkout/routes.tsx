/** @jsxImportSource hono/jsx */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { JSX } from "hono/jsx/jsx-runtime";
import { checkCardForm } from "../../domain/card.js";
import { ApiError } from "../../domain/errors.js";
import { maskText } from "../../domain/masking.js";
import type { Work } from "../../services/unit-of-work.js";
import type { PaymentIntentRow } from "../../resources/payment-intents/store.js";
import { paymentIntentService } from "../../resources/payment-intents/operations.js";
import { checkoutHeaders, createFormTokens, isCrossSitePost, styleNonce } from "../page-security.js";
import { requestIdOf, type AppDeps, type AppEnv } from "../env.js";
import { CheckoutPage } from "./views/CheckoutPage.js";
import { toIntentView, type IntentView } from "./views/IntentSummary.js";
import { MessagePage, NotFoundPage } from "./views/MessagePage.js";
import { ResultPage } from "./views/ResultPage.js";

type CheckoutEnv = AppEnv & { Variables: { secureHeadersNonce?: string } };
type CheckoutContext = Context<CheckoutEnv>;

/** A card form is a few short fields: anything much larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;
/** Longest expiry worth showing back in a refused form. */
const MAX_ECHOED_EXPIRY = 16;

/** The fields of a posted form, strings only (a file upload counts as absent). */
type FormFields = Partial<Record<string, string>>;

interface Loaded {
  row: PaymentIntentRow;
  view: IntentView;
}

/**
 * The hosted checkout page (docs/api.md): `GET /checkout/:id` shows the form of a
 * `created` intent or where the payment stands; `POST …/pay` and `POST …/cancel`
 * move the intent through the same PaymentIntentService as the API, so they
 * emit the same events. Works without JavaScript; every answer is HTML.
 */
export function checkoutRoutes(deps: AppDeps) {
  const { store, clock, unitOfWork, testCards } = deps;
  const paymentIntents = paymentIntentService({ deps });
  // Per instance and in memory only: a restart invalidates open forms, nothing else.
  const tokens = createFormTokens();
  const app = new Hono<CheckoutEnv>();

  // API answers carry their Request-Id from jsonResponse; pages get it here, before they are built.
  app.use("*", async (c, next) => {
    c.header("Request-Id", requestIdOf(c));
    await next();
  });
  app.use("*", checkoutHeaders());

  async function render(c: CheckoutContext, page: JSX.Element, status: 200 | 400 | 403 | 404 | 409 | 413 | 422 | 500 = 200) {
    return c.html(`<!DOCTYPE html>${await page}`, status);
  }

  function load(id: string): Loaded | undefined {
    const row = paymentIntents.byCheckoutId(id);
    if (!row) return undefined;
    return { row, view: viewOf(row) };
  }

  function viewOf(row: PaymentIntentRow): IntentView {
    return toIntentView(row, store.companies.byId(row.company_id)?.name ?? "Merchant");
  }

  const notFound = (c: CheckoutContext) => render(c, <NotFoundPage nonce={styleNonce(c)} requestId={requestIdOf(c)} />, 404);

  /** The form of a created intent, or where the payment stands. */
  function show(c: CheckoutContext, { row, view }: Loaded) {
    if (row.state !== "created") return render(c, <ResultPage view={view} nonce={styleNonce(c)} />);
    return render(c, <CheckoutPage view={view} testCards={testCards} token={tokens.issue(row.id)} nonce={styleNonce(c)} />);
  }

  /** A form post for an intent that has left `created` meanwhile: show where it stands, change nothing. */
  function moved(c: CheckoutContext, row: PaymentIntentRow) {
    const notice = `This payment was already ${row.state} before your request arrived, so nothing was changed.`;
    return render(c, <ResultPage view={viewOf(row)} nonce={styleNonce(c)} notice={notice} />, 409);
  }

  async function readForm(c: CheckoutContext): Promise<FormFields> {
    let body: Record<string, unknown>;
    try {
      body = await c.req.parseBody();
    } catch {
      return {}; // a malformed body carries no valid token either: refused below
    }
    const fields: FormFields = {};
    for (const [name, value] of Object.entries(body)) if (typeof value === "string") fields[name] = value;
    return fields;
  }

  /** A post from another site, or without this intent's token, is refused before it is read further. */
  function forged(c: CheckoutContext, intentId: string, form: FormFields): boolean {
    const headers = { origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") };
    return isCrossSitePost(headers, new URL(c.req.url).origin) || !tokens.verify(intentId, form.token);
  }

  /** A page that only says something, with this request's id for the log. */
  const message = (c: CheckoutContext, title: string, text: string, status: 403 | 500) =>
    render(c, <MessagePage title={title} message={text} nonce={styleNonce(c)} requestId={requestIdOf(c)} />, status);

  const refuseForged = (c: CheckoutContext) =>
    message(
      c,
      "This form could not be verified",
      "For your security, payments are only accepted from this payment page itself. Open the payment link again and retry; nothing was charged.",
      403,
    );

  /**
   * Moves a still-`created` intent in one unit of work, re-reading it inside the
   * transaction so a concurrent move (API capture, another tab) is seen, then
   * sends the browser to the page that shows the outcome (post/redirect/get).
   */
  function commit(c: CheckoutContext, row: PaymentIntentRow, act: (work: Work, current: PaymentIntentRow) => PaymentIntentRow) {
    const result = unitOfWork(requestIdOf(c), (work) => {
      const current = paymentIntents.get(row.company_id, row.id);
      if (current.state !== "created") return { moved: true, row: current };
      return { moved: false, row: act(work, current) };
    });
    if (result.moved) return moved(c, result.row);
    return c.redirect(`/checkout/${row.id}`, 303);
  }

  const limitForm = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) =>
      render(
        c as CheckoutContext,
        <MessagePage
          title="Form too large"
          message="The form sent was larger than a card form can be. Go back and try again."
          nonce={styleNonce(c as CheckoutContext)}
        />,
        413,
      ),
  });

  app.get("/:id", (c) => {
    const found = load(c.req.param("id"));
    return found ? show(c, found) : notFound(c);
  });

  app.post("/:id/pay", limitForm, async (c) => {
    const found = load(c.req.param("id"));
    if (!found) return notFound(c);
    const form = await readForm(c);
    if (forged(c, found.row.id, form)) return refuseForged(c);
    if (found.row.state !== "created") return moved(c, found.row);

    const check = checkCardForm({ number: form.number ?? "", expiry: form.expiry ?? "", cvc: form.cvc ?? "" }, clock.now(), testCards);
    // From here on only last4 and brand exist: the typed number and CVC are dropped.
    delete form.number;
    delete form.cvc;
    if (!check.ok) {
      const expiry = maskText(form.expiry ?? "").slice(0, MAX_ECHOED_EXPIRY);
      const page = (
        <CheckoutPage view={found.view} testCards={testCards} token={tokens.issue(found.row.id)} nonce={styleNonce(c)} errors={check.errors} expiry={expiry} />
      );
      return render(c, page, 422);
    }
    return commit(c, found.row, (work, current) => paymentIntents.authorize(work, current, check.presented));
  });

  app.post("/:id/cancel", limitForm, async (c) => {
    const found = load(c.req.param("id"));
    if (!found) return notFound(c);
    const form = await readForm(c);
    if (forged(c, found.row.id, form)) return refuseForged(c);
    // The customer may only abandon a payment not yet made; cancelling an authorization is the merchant's call (API).
    if (found.row.state !== "created") return moved(c, found.row);
    return commit(c, found.row, (work, current) => paymentIntents.cancel(work, current));
  });

  // Anything else under /checkout is an unknown payment link.
  app.all("*", (c) => notFound(c));

  app.onError((error, c) => {
    if (error instanceof ApiError && error.code === "not_found") return notFound(c);
    deps.reportError(requestIdOf(c), error);
    return message(
      c,
      "Something went wrong",
      "paysim could not show this payment page. Nothing was charged; the paysim log has the details under this request.",
      500,
    );
  });

  return app;
}
