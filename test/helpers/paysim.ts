import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPaysim, type PaysimInstance, type PaysimOptions } from "../../src/paysim.js";

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = "paysim-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiCall {
  body?: unknown;
  /** Raw body text, sent as is (with `contentType`). */
  raw?: string | Uint8Array;
  contentType?: string;
  key?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface TestPaysim extends PaysimInstance {
  dbPath: string;
  /** Calls the instance over real HTTP with the default company's key unless `key` says otherwise. */
  api<T = any>(method: string, path: string, call?: ApiCall): Promise<ApiResponse<T>>;
  /** Stops the instance and removes its folder. */
  dispose(): Promise<void>;
}

/**
 * A paysim on 127.0.0.1 (random port) with a real SQLite file in a temp folder.
 *
 * @example
 * const paysim = await startTestPaysim();
 * const created = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: "k1" });
 */
export async function startTestPaysim(options: PaysimOptions = {}): Promise<TestPaysim> {
  const { dir, cleanup } = tempDir();
  const dbPath = options.db ?? join(dir, "paysim.db");
  const instance = await createPaysim({ port: 0, db: dbPath, ...options });
  return Object.assign(instance, {
    dbPath,
    api: <T>(method: string, path: string, call: ApiCall = {}) => callApi<T>(instance.url, instance.secretKey, method, path, call),
    async dispose() {
      await instance.close();
      cleanup();
    },
  });
}

export async function callApi<T = any>(baseUrl: string, defaultKey: string, method: string, path: string, call: ApiCall = {}): Promise<ApiResponse<T>> {
  return apiResponse<T>(await fetch(baseUrl + path, requestInit(defaultKey, method, call)));
}

/** The request an `ApiCall` describes: the key (the default one unless `key` says otherwise), the Idempotency-Key, the body. */
function requestInit(defaultKey: string, method: string, call: ApiCall): RequestInit {
  const headers: Record<string, string> = { ...call.headers };
  const key = call.key === undefined ? defaultKey : call.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (call.idempotencyKey !== undefined) headers["Idempotency-Key"] = call.idempotencyKey;
  let body: string | Uint8Array | undefined;
  if (call.raw !== undefined) {
    body = call.raw;
    if (call.contentType) headers["Content-Type"] = call.contentType;
  } else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers["Content-Type"] = call.contentType ?? "application/json";
  }
  return { method, headers, body };
}

async function apiResponse<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * An `api` that calls an instance's Hono app with `app.request()`: no socket, the
 * same app the server serves (without the Node-only paths of server/node-adapter.ts).
 */
export function appClientFor(app: PaysimInstance["app"], key: string): Pick<TestPaysim, "api"> {
  return {
    api: async <T>(method: string, path: string, call: ApiCall = {}) => apiResponse<T>(await app.request(path, requestInit(key, method, call))),
  };
}

/**
 * A paysim whose `api` calls its app through `app.request()` rather than HTTP, on an
 * in-memory database unless `db` says otherwise. For tests of what routes answer;
 * what needs a socket (raw requests, Host and absolute-form targets, timeouts,
 * connections) uses `startTestPaysim`.
 */
export async function startTestPaysimApp(options: PaysimOptions = {}): Promise<TestPaysim> {
  const paysim = await startTestPaysim({ db: ":memory:", ...options });
  return Object.assign(paysim, appClientFor(paysim.app, paysim.secretKey));
}

/** An `api` bound to any running instance and key, for helpers that take `{ api }`. */
export function clientFor(baseUrl: string, key: string): Pick<TestPaysim, "api"> {
  return { api: <T>(method: string, path: string, call: ApiCall = {}) => callApi<T>(baseUrl, key, method, path, call) };
}

let counter = 0;
/** A fresh Idempotency-Key. */
export function freshKey(): string {
  counter += 1;
  return `test-key-${process.pid}-${Date.now()}-${counter}`;
}

/** Creates a payment intent with a fresh Idempotency-Key; fails the test unless it answers 201. */
export async function createIntent(paysim: Pick<TestPaysim, "api">, body: object = { amount: 1000 }, key?: string): Promise<any> {
  const response = await paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey: freshKey(), key });
  if (response.status !== 201) throw new Error(`creating a payment intent answered ${response.status}: ${response.text}`);
  return response.body;
}

/** The id of the company's newest event (undefined when it has none): a cheap "was anything emitted?" probe. */
export async function newestEventId(paysim: Pick<TestPaysim, "api">, key?: string): Promise<string | undefined> {
  const response = await paysim.api("GET", "/v1/events?limit=1", { key });
  if (response.status !== 200) throw new Error(`listing events answered ${response.status}: ${response.text}`);
  return response.body.data[0]?.id;
}

/** The company's events newer than `afterId` (all of them when undefined), oldest first. */
export async function eventsSince(paysim: Pick<TestPaysim, "api">, afterId: string | undefined, key?: string): Promise<any[]> {
  const newer: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const response = await paysim.api("GET", `/v1/events?limit=100${cursor ? `&starting_after=${cursor}` : ""}`, { key });
    if (response.status !== 200) throw new Error(`listing events answered ${response.status}: ${response.text}`);
    for (const event of response.body.data) {
      if (event.id === afterId) return newer.reverse();
      newer.push(event);
    }
    if (!response.body.has_more) return newer.reverse();
    cursor = response.body.data.at(-1).id;
  }
}

/** How many rows `table` of an instance's database holds (read straight from the store). */
export const rowCount = (paysim: Pick<TestPaysim, "store">, table: string) => paysim.store.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

/** Rows of every table a creation writes: nothing may change when a request is refused or a fault says "nothing". */
export const creationRows = (paysim: Pick<TestPaysim, "store">) => ({
  payment_intents: rowCount(paysim, "payment_intents"),
  events: rowCount(paysim, "events"),
  idempotency_keys: rowCount(paysim, "idempotency_keys"),
});
