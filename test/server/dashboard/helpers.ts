import { expect } from "vitest";
import type { PaysimOptions } from "../../../src/paysim.js";
import { usePaysimApp, type Scope } from "../../helpers/disposables.js";
import type { TestPaysim } from "../../helpers/paysim.js";

/** An answer of the dashboard, its body as text. */
export interface Answer {
  status: number;
  headers: Headers;
  html: string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** Visible text of an HTML page: styles and scripts dropped, tags stripped, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<(style|script)[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!)
    .replace(/\s+/g, " ");
}

/** The CSRF token of a page's forms. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in page: ${textOf(html).slice(0, 300)}`);
  return match[1]!;
}

/** The session's own base path in a sign-in's redirect: `/dashboard/<scope>` before `/events`. */
const BASE_IN_LOCATION = /^(\/dashboard\/[0-9A-Za-z]{22})\/events$/;

/**
 * A browser's view of one paysim's dashboard through `app.request()`: it keeps
 * the session cookie it is given and the session's own base path, and sends
 * forms as urlencoded posts. A path starting with /dashboard (or a whole URL)
 * is asked as it is; any other path is one of the session's pages, under its
 * base: `client.get("/events")` asks `/dashboard/<scope>/events`.
 */
export class DashboardClient {
  cookie: string | undefined;
  /** The session's own base path, `/dashboard/<scope>`, once signed in. */
  base: string | undefined;
  constructor(readonly paysim: TestPaysim) {}

  /** The URL a path names, as the class comment says. */
  url(path: string): string {
    if (path.startsWith("http")) return path;
    if (path.startsWith("/dashboard")) return this.paysim.url + path;
    if (this.base === undefined) throw new Error(`not signed in: no session page ${path}`);
    return this.paysim.url + this.base + path;
  }

  async request(path: string, init: RequestInit = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has("cookie")) headers.set("cookie", this.cookie);
    const response = await this.paysim.app.request(this.url(path), { ...init, headers, redirect: "manual" });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      const pair = setCookie.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? undefined : pair;
      if (this.cookie === undefined) this.base = undefined;
    }
    const base = BASE_IN_LOCATION.exec(response.headers.get("location") ?? "")?.[1];
    if (setCookie && base) this.base = base;
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request(path, { headers });
  }

  post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Answer> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    return this.request(path, { method: "POST", body, headers });
  }

  /** Posts a page's form with the session's token, then follows the redirect, as a browser does. */
  async submit(path: string, fields: Record<string, string | string[]> = {}): Promise<Answer> {
    const csrf = csrfOf((await this.get("/events")).html);
    const answer = await this.post(path, { csrf, ...fields });
    expect(answer.status, textOf(answer.html).slice(0, 400)).toBe(303);
    return this.get(answer.headers.get("location")!);
  }

  /** Opens a one-time link and presses its Sign in button: the answer to that press. */
  async openLink(link: string): Promise<Answer> {
    const page = await this.get(link);
    expect(page.status, textOf(page.html).slice(0, 400)).toBe(200);
    return this.post(link, { csrf: csrfOf(page.html) });
  }

  /** Signs in with the one-time link paysim makes for its default company. */
  async signInByLink(): Promise<this> {
    const answer = await this.openLink(this.paysim.dashboardLoginUrl());
    expect(answer.status).toBe(303);
    return this;
  }

  /** Signs in with a secret key through the sign-in form. */
  async signInByKey(key: string): Promise<Answer> {
    const form = await this.get("/dashboard/login");
    return this.post("/dashboard/login", { csrf: csrfOf(form.html), key });
  }
}

/** A signed-in client of the default company. */
export async function signedIn(paysim: TestPaysim): Promise<DashboardClient> {
  return new DashboardClient(paysim).signInByLink();
}

/** Secret keys of the two companies of `useTwoCompanies`; Acme is the default one. */
export const ACME_KEY = "sk_test_dash_acme_0001";
export const GLOBEX_KEY = "sk_test_dash_globex_0001";

/** A paysim (through `app.request()`) with two companies, Acme (EUR, default) and Globex (USD), no endpoints. */
export function useTwoCompanies(scope: Scope, options: PaysimOptions = {}): Promise<TestPaysim> {
  const companies = [
    { name: "Acme", currency: "EUR", secret_key: ACME_KEY, webhook_endpoints: [] },
    { name: "Globex", currency: "USD", secret_key: GLOBEX_KEY, webhook_endpoints: [] },
  ];
  return usePaysimApp({ ...options, config: { companies } }, scope);
}
