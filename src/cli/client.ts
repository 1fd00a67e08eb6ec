import { Option, type Command } from "commander";
import type { FixtureMethod } from "../fixtures/fixture.js";
import type { FixtureClient } from "../fixtures/runner.js";
import { readErrorBody } from "../fixtures/error-body.js";
import { databaseRecordPath, liveInstances, readInstanceFile, recordIsFor, registryDir, type InstanceFile } from "./instance-file.js";
import type { Output } from "./output.js";

/**
 * How the commands other than `start` reach a running paysim: over HTTP with a
 * merchant key, never by opening its database (docs/cli.md).
 */

/** A failure the CLI reports in one line and exits with: 1 refused or bad argument, 2 no server. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
    /** Lines said under the message (a list of what it names), each a line of its own: an error line holds no line break. */
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A bad argument found by a command's action: said under the command's name, with a pointer to its --help. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 1);
    this.name = "UsageError";
  }
}

/** Nothing answered at the URL (connection refused, unknown host, no answer in time): exit 2. */
export class ServerUnreachableError extends CliError {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(
      `no paysim server reachable at ${url} (${reason}). Start one with \`paysim start\`, or point to a running one with --url and --key (or PAYSIM_URL and PAYSIM_SECRET_KEY).`,
      2,
    );
    this.name = "ServerUnreachableError";
  }
}

/** The server refused the request: its error code and message, as the docs/api.md body gives them. */
export class ApiRequestError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly param?: string,
  ) {
    super(`${code}: ${detail}${param === undefined ? "" : ` (param: ${param})`}`, 1);
    this.name = "ApiRequestError";
  }
}

export interface ConnectionFlags {
  url?: string;
  key?: string;
}

export interface Connection {
  url: string;
  key: string;
  /** Lines for stderr when the choice of server needs saying: several were running. */
  notice?: string[];
}

/**
 * Where the server is and which key to use: `--url`/`--key`, else PAYSIM_URL /
 * PAYSIM_SECRET_KEY, else what `paysim start` left: the record beside PAYSIM_DB
 * when that is set, otherwise the running servers started from this folder
 * (`.paysim/instances/`). With several running, the first started is used and the
 * notice names it and the others' `--url`. A key from those files is only taken for
 * the file's own URL, so that a key never travels to a server it was not made for.
 *
 * @example
 * await resolveConnection({ url: "http://127.0.0.1:7420", key: "sk_test_…" }, process.env, process.cwd());
 */
export async function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<Connection> {
  const given = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);
  let url = given(flags.url) ?? given(env.PAYSIM_URL);
  let key = given(flags.key) ?? given(env.PAYSIM_SECRET_KEY);
  let notice: string[] | undefined;
  if (url === undefined || key === undefined) {
    // PAYSIM_DB naming a database file points at that database's record; ":memory:" leaves
    // none, so it counts as unset (the same variable also tells `start` where to run).
    const dbPath = given(env.PAYSIM_DB) === ":memory:" ? undefined : given(env.PAYSIM_DB);
    const recordPath = dbPath === undefined ? undefined : databaseRecordPath(dbPath);
    let known: InstanceFile[];
    if (dbPath !== undefined && recordPath !== undefined) {
      const record = readInstanceFile(recordPath);
      known = record && recordIsFor(record, dbPath) ? [record] : [];
    } else {
      known = await liveInstances(cwd);
    }
    if (url === undefined) {
      const chosen = known[0];
      if (chosen === undefined) {
        const where = recordPath === undefined ? `no running paysim started from this folder (${registryDir(cwd)})` : `no record of ${dbPath} in ${recordPath}`;
        throw new CliError(`no paysim server known: no --url, no PAYSIM_URL and ${where}. Run \`paysim start\` in this folder, or pass --url and --key.`, 2);
      }
      url = chosen.url;
      if (known.length > 1) notice = severalRunning(chosen, known.slice(1));
    }
    if (key === undefined) {
      const owner = known.find((file) => sameServer(file.url, url!));
      if (owner && typeof owner.secret_key === "string") key = owner.secret_key;
    }
  }
  const normalized = normalizeUrl(url);
  if (key === undefined) {
    throw new CliError(`no secret key for ${normalized}: pass --key sk_test_… or set PAYSIM_SECRET_KEY.`);
  }
  return notice === undefined ? { url: normalized, key } : { url: normalized, key, notice };
}

/** Says which of several running servers a command talks to, and how to pick another. */
function severalRunning(chosen: InstanceFile, others: readonly InstanceFile[]): string[] {
  const describe = (file: InstanceFile) => `pid ${file.pid}, database ${file.db}, started ${file.started_at}`;
  return [
    `${others.length + 1} paysim servers started from this folder are running; using the first started, ${chosen.url} (${describe(chosen)}).`,
    "To use another, pass its --url:",
    ...others.map((file) => `  --url ${file.url}   (${describe(file)})`),
  ];
}

function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${JSON.stringify(url)} is not a URL: give the base URL paysim printed, e.g. http://127.0.0.1:7420.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new CliError(`${JSON.stringify(url)} is not an http(s) URL: give the base URL paysim printed, e.g. http://127.0.0.1:7420.`);
  }
  return parsed.origin + parsed.pathname.replace(/\/+$/, "");
}

function sameServer(a: string, b: string): boolean {
  try {
    return normalizeUrl(a) === normalizeUrl(b);
  } catch {
    return false;
  }
}

export interface ApiResult {
  status: number;
  body: unknown;
}

export interface ApiClient extends FixtureClient {
  readonly url: string;
  /** One call; answers whatever status the server gave. Throws ServerUnreachableError when nothing answers. */
  request(method: FixtureMethod, path: string, options?: { body?: unknown; idempotencyKey?: string }): Promise<ApiResult>;
  /** One call that must succeed: a refusal becomes an ApiRequestError carrying the server's code and message. */
  call<T = Record<string, unknown>>(method: FixtureMethod, path: string, options?: { body?: unknown; idempotencyKey?: string }): Promise<T>;
}

/** Long enough for a `clock advance` that does a year of due work before it answers. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * `send` is how a request goes out: fetch, or an in-process instance's `app.request`.
 *
 * @example
 * const client = createApiClient({ url: "http://127.0.0.1:7420", key: "sk_test_…" });
 * const clock = await client.call("GET", "/v1/sandbox/clock");
 */
export function createApiClient(connection: Connection, timeoutMs = REQUEST_TIMEOUT_MS, send: typeof fetch = fetch): ApiClient {
  const request: ApiClient["request"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${connection.key}`, Accept: "application/json" };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
    let response: Response;
    let text: string;
    try {
      response = await send(connection.url + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new ServerUnreachableError(connection.url, reasonOf(error, timeoutMs));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiRequestError(
        response.status,
        "unexpected_response",
        `${connection.url} answered ${method} ${path} with HTTP ${response.status} and a body that is not JSON; is it a paysim server?`,
      );
    }
    return { status: response.status, body };
  };

  return {
    url: connection.url,
    request,
    async call<T>(method: FixtureMethod, path: string, options: { body?: unknown; idempotencyKey?: string } = {}) {
      const { status, body } = await request(method, path, options);
      if (status >= 200 && status <= 299) return body as T;
      const error = readErrorBody(status, body);
      throw new ApiRequestError(status, error.code, error.message, error.param);
    },
  };
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return (error as Error)?.message ?? String(error);
}

/** The flags every server-talking command takes. */
export interface ClientFlags extends ConnectionFlags {
  json?: boolean;
}

/** Adds --url and --key to a command: how it finds the server. */
export function withConnectionOptions(command: Command): Command {
  return command
    .addOption(new Option("--url <url>", "base URL of the running paysim (else PAYSIM_URL, else the one started from this folder)"))
    .addOption(new Option("--key <sk_test_…>", "merchant secret key (else PAYSIM_SECRET_KEY, else the one paysim start printed for that server)"));
}

/** Adds --url, --key and --json to a command. */
export function withClientOptions(command: Command): Command {
  return withConnectionOptions(command).addOption(new Option("--json", "print the raw JSON the server answered"));
}

/** Resolves the connection from flags, environment and the files `start` left, says which server when that needs saying, and builds a client for it. */
export async function connect(flags: ConnectionFlags, output: Output): Promise<ApiClient> {
  const connection = await resolveConnection(flags);
  for (const line of connection.notice ?? []) output.error(`paysim: ${line}`);
  return createApiClient(connection);
}
