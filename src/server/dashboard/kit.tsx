/** @jsxImportSource hono/jsx */
import type { Context, Hono } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import { ApiError } from "../../domain/errors.js";
import { maskText } from "../../domain/masking.js";
import type { Sends } from "../operations/define.js";
import { invoke, type Invocable } from "../operations/invoke.js";
import type { Company } from "../../resources/companies/store.js";
import { styleNonce } from "../page-security.js";
import type { AppDeps, AppEnv } from "../env.js";
import { sessionBase, type DashboardAuth, type DashboardSession } from "./auth.js";
import { SIGN_IN_PATH, type Section } from "./nav.js";
import { Layout } from "./views/Layout.js";
import { MessageBody } from "./views/SignInPage.js";

export type DashboardEnv = AppEnv & {
  Variables: { secureHeadersNonce?: string; session: DashboardSession; dashboardCompany: Company };
};
export type DashboardContext = Context<DashboardEnv>;
export type DashboardApp = Hono<DashboardEnv>;

/** A posted form: each field's values, strings only (a file upload counts as absent). */
export interface Form {
  /** The field's first value. */
  get(name: string): string | undefined;
  /** Every value of a repeated field (checkboxes). */
  all(name: string): string[];
}

export type PageStatus = 200 | 400 | 403 | 404 | 413 | 500;

export interface PageOptions {
  title: string;
  section?: Section | undefined;
  /** The page's own script (nonce'd); the page must work without it. */
  script?: string | undefined;
  status?: PageStatus;
}

/** What every page module is built from. */
export interface DashboardKit {
  deps: AppDeps;
  auth: DashboardAuth;
  /** A whole page: layout, navigation, the signed-in company, and the session's pending notice (shown once). */
  page(c: DashboardContext, options: PageOptions, body: JSX.Element): Promise<Response>;
  /**
   * A page that only says something (refused form, unknown page, used link),
   * with the navigation when signed in, else a way to sign in.
   */
  message(c: DashboardContext, title: string, text: string, status: PageStatus): Promise<Response>;
  /**
   * The posted form (already read once by the CSRF check; Hono keeps the parsed body). Its values
   * reach paysim as an API body would, through `call`, which masks and validates them as the API
   * does; what a page shows back of them (a notice, a message) is masked when shown.
   */
  form(c: DashboardContext): Promise<Form>;
  /**
   * Runs a dashboard action and sends the browser back to `back`, a page path under the session's base (post/redirect/get)
   * with what it did, or the API's refusal in words; an unknown id is the 404 page.
   */
  act(c: DashboardContext, back: string, action: () => Promise<string> | string): Promise<Response>;
  /**
   * Makes an operation's call for this signed-in company, as the API would for the same body
   * (operations/invoke.ts): one definition serves the route and the button.
   */
  call<S extends Sends>(c: DashboardContext, operation: Invocable<S>, input?: Parameters<typeof invoke>[2]): Promise<S["resource"]>;
}

/** This request's `req_…` id. */
export const requestIdOf = (c: DashboardContext): string => c.get("requestId");

/** This request's session's own base path, `/dashboard/<scope>`. */
export const baseOf = (c: DashboardContext): string => sessionBase(c.get("session"));

/** The address of a dashboard page (`/events`, `/payouts/po_…`) under this request's session's own base. */
export const linkTo = (c: DashboardContext, path: string): string => `${baseOf(c)}${path}`;

/** The signed-in company of this request. */
export const companyOf = (c: DashboardContext): Company => c.get("dashboardCompany");

/** Reads the posted form; every caller asks for all values, so Hono's cached parse serves them all. */
export async function readForm(c: DashboardContext): Promise<Form> {
  let body: Record<string, unknown> = {};
  try {
    body = await c.req.parseBody({ all: true });
  } catch {
    // a malformed body carries no valid CSRF token either: refused by the caller
  }
  const all = (name: string): string[] => {
    const value = body[name];
    const values = Array.isArray(value) ? value : [value];
    return values.filter((v): v is string => typeof v === "string");
  };
  return { get: (name) => all(name)[0], all };
}

/**
 * A number field of a form as an API body holds it: absent when left empty, a number when it
 * reads as one, else the text itself, which the API's schema then refuses in words naming the field.
 */
export function formNumber(form: Form, name: string): number | string | undefined {
  const text = form.get(name)?.trim() ?? "";
  if (text === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** The fields of `values` that are not undefined: an API body without the form's empty fields. */
export function given<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Sends the whole document. */
export async function sendPage(c: DashboardContext, page: JSX.Element, status: PageStatus = 200): Promise<Response> {
  return c.html(`<!DOCTYPE html>${await page}`, status);
}

export function createKit(deps: AppDeps, auth: DashboardAuth): DashboardKit {
  return {
    deps,
    auth,
    page(c, { title, section, script, status }, body) {
      const session = c.get("session");
      const notice = session.notice;
      session.notice = undefined;
      const signedIn = { companyName: companyOf(c).name, csrf: session.csrf, base: sessionBase(session) };
      const document = (
        <Layout title={title} nonce={styleNonce(c)} section={section} signedIn={signedIn} notice={notice} script={script}>
          {body}
        </Layout>
      );
      return sendPage(c, document, status);
    },
    message(c, title, text, status) {
      const session = c.get("session") as DashboardSession | undefined;
      const company = session && c.get("dashboardCompany");
      const signedIn = session && company ? { companyName: company.name, csrf: session.csrf, base: sessionBase(session) } : undefined;
      const action = signedIn ? { href: `${signedIn.base}/events`, label: "Back to events" } : { href: SIGN_IN_PATH, label: "Sign in" };
      const document = (
        <Layout title={title} nonce={styleNonce(c)} signedIn={signedIn}>
          <MessageBody title={title} text={maskText(text)} requestId={requestIdOf(c)} action={action} />
        </Layout>
      );
      return sendPage(c, document, status);
    },
    form: readForm,
    async act(c, back, action) {
      const session = c.get("session");
      try {
        session.notice = { kind: "ok", text: maskText(await action()) };
      } catch (error) {
        if (!(error instanceof ApiError) || error.code === "not_found") throw error;
        session.notice = { kind: "error", text: maskText(error.message) };
      }
      return c.redirect(linkTo(c, back), 303);
    },
    call: (c, operation, input) => invoke(operation, { deps, company: companyOf(c), requestId: requestIdOf(c) }, input),
  };
}
