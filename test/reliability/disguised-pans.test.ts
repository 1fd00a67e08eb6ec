import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { StartedPaysim } from "../helpers/cli.js";
import { suiteScope, useCli, usePaysim, usePaysimCli, useReceiver, useTempDir } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { DISGUISED_PANS, leakedPans, normalisedForScan } from "../helpers/pan-forms.js";
import { callApi, freshKey, type ApiResponse, type TestPaysim } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";

// The child-process part runs the real binary (dist/): run `npm run build` first.

/**
 * Issue 17 item 7: card numbers written with other digits, other separators or
 * percent-encoding once went through masking untouched, into the database, the
 * logs, webhook bodies and (in an endpoint URL) every delivery request. This sends
 * each form through every door and reads every place it could land, normalised.
 */

const PANS = DISGUISED_PANS.map((d) => d.pan);
/** The issue's own example, and the same card number in other forms an endpoint URL could carry. */
const URL_PAN = "4242424242424242";
const URL_PATHS = [
  "/hook/4242%204242%204242%204242",
  "/hook/%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32",
  "/hook/٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢",
  "/hook/%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92%EF%BC%94%EF%BC%92",
  "/hook?card=4242+4242+4242+4242",
  "/hook/4242\u200b4242\u200b4242\u200b4242",
];
const ALL_PANS = [...PANS, URL_PAN];

type Call = (method: string, path: string, call?: { body?: unknown; idempotencyKey?: string }) => Promise<ApiResponse>;

interface Sent {
  intents: ApiResponse[];
  ingests: ApiResponse[];
  endpoints: ApiResponse[];
  lookup: ApiResponse;
}

/** Every door: descriptions, ingested card.number and free text, endpoint URLs, and a request path. */
async function sendDisguisedPans(api: Call, receiverUrl: string): Promise<Sent> {
  const intents: ApiResponse[] = [];
  const ingests: ApiResponse[] = [];
  const endpoints: ApiResponse[] = [];
  for (const { written } of DISGUISED_PANS) {
    intents.push(await api("POST", "/v1/payment_intents", { body: { amount: 1000, description: `paid with ${written} today` }, idempotencyKey: freshKey() }));
    const data = { reference: "PAY-0000000042", amount: 2500, currency: "EUR", card: { number: written }, note: `card ${written}` };
    ingests.push(await api("POST", "/v1/sandbox/webhook_ingest", { body: { type: "payment_intent.captured", data }, idempotencyKey: freshKey() }));
  }
  for (const path of URL_PATHS) {
    endpoints.push(await api("POST", "/v1/webhook_endpoints", { body: { url: `${receiverUrl}${path}` }, idempotencyKey: freshKey() }));
  }
  const lookup = await api("GET", `/v1/payment_intents/${encodeURIComponent(DISGUISED_PANS[0]!.written)}`);
  return { intents, ingests, endpoints, lookup };
}

/** The bytes of the database and its WAL, read as text (binary parts cannot spell a PAN's 12 digits by chance). */
function databaseText(dbPath: string): string {
  return [dbPath, `${dbPath}-wal`]
    .filter(existsSync)
    .map((path) => readFileSync(path).toString("latin1") + readFileSync(path).toString("utf8"))
    .join("\n");
}

function expectNoLeak(where: string, text: string) {
  expect(leakedPans(text, ALL_PANS), `a PAN could be read in ${where}`).toEqual([]);
}

function expectAnswersMasked(sent: Sent) {
  sent.intents.forEach((response, i) => {
    expect(response.status, response.text).toBe(201);
    // Only the last 4 digits are left: the text around the number is kept, the number is stars and 4 digits.
    expect(normalisedForScan(response.body.description).replace(/\D/g, "")).toBe(PANS[i]!.slice(-4));
    expect(response.body.description).toMatch(/^paid with .*\*.* today$/);
  });
  sent.ingests.forEach((response, i) => {
    expect(response.status, response.text).toBe(201);
    expect(normalisedForScan(response.body.data.card.number).replace(/\D/g, "")).toBe(PANS[i]!.slice(-4));
    expect(normalisedForScan(response.body.data.note).replace(/\D/g, "")).toBe(PANS[i]!.slice(-4));
  });
  for (const response of sent.endpoints) {
    expectApiError(response, 400, "invalid_request", "url");
    expect(response.body.error.message).toContain("looks like a card number");
  }
  expect(sent.lookup.status).toBe(404);
  for (const response of [...sent.intents, ...sent.ingests, ...sent.endpoints, sent.lookup]) expectNoLeak("an API answer", response.text);
}

describe("card numbers in any form, through the library instance", () => {
  const thisSuite = suiteScope();
  const dbPath = join(useTempDir("paysim-disguised-", thisSuite), "paysim.db");
  const logged: string[] = [];
  let paysim: TestPaysim;
  let receiver: Receiver;
  let sent: Sent;

  beforeAll(async () => {
    receiver = await useReceiver(200, thisSuite);
    paysim = await usePaysim({ db: dbPath, forwardTo: `${receiver.url}/clean` }, thisSuite);
    for (const name of ["request.logged", "event.created", "delivery.attempted", "deliveries.stopped"] as const) {
      paysim.bus.on(name, (payload: unknown) => logged.push(JSON.stringify(payload)));
    }
    sent = await sendDisguisedPans(paysim.api, receiver.url);
    // One delivery per event: every intent creation and every ingest.
    await receiver.waitForRequests(DISGUISED_PANS.length * 2);
  });

  it("answers every form masked to its last 4 digits, and refuses every endpoint URL holding a card number (400, param url)", () => {
    expectAnswersMasked(sent);
  });

  it("stores no endpoint for a refused URL", async () => {
    const listed = await paysim.api("GET", "/v1/webhook_endpoints");
    expect(listed.body.data.map((e: { url: string }) => e.url)).toEqual([`${receiver.url}/clean`]);
  });

  it("lets no PAN be read in the database file or its WAL while paysim runs", () => {
    expect(existsSync(`${dbPath}-wal`)).toBe(true);
    const text = databaseText(dbPath);
    expect(text).toContain("****");
    expectNoLeak("the database", text);
  });

  it("lets no PAN be read in what the bus announces (request log, events, deliveries)", () => {
    expect(logged.some((line) => line.includes("/v1/payment_intents/"))).toBe(true);
    expectNoLeak("the bus", logged.join("\n"));
  });

  it("lets no PAN be read in the webhook bodies, headers or URLs the receiver got", () => {
    expect(receiver.requests.length).toBeGreaterThanOrEqual(DISGUISED_PANS.length * 2);
    for (const request of receiver.requests) {
      expect(request.url).toBe("/hooks/clean");
      expectNoLeak("a webhook body", request.body.toString("utf8"));
      expectNoLeak("webhook headers", JSON.stringify(request.headers));
    }
  });

  it("lets no PAN be read in the database once paysim has closed (WAL checkpointed)", async () => {
    await paysim.close();
    expectNoLeak("the closed database", databaseText(dbPath));
  });
});

describe("card numbers in any form, through the paysim binary and its log", () => {
  const thisSuite = suiteScope();
  const dbPath = join(useTempDir("paysim-disguised-cli-", thisSuite), "paysim.db");
  let started: StartedPaysim;
  let receiver: Receiver;
  let sent: Sent;

  beforeAll(async () => {
    receiver = await useReceiver(200, thisSuite);
    started = await usePaysimCli(["--no-ui", "--db", dbPath, "--forward-to", `${receiver.url}/clean`], {}, thisSuite);
    const api: Call = (method, path, call = {}) => callApi(started.url, started.key, method, path, call);
    sent = await sendDisguisedPans(api, receiver.url);
    const delivered = await receiver.waitForRequests(DISGUISED_PANS.length * 2);
    // A delivery line is printed once its attempt is recorded, just after the receiver answered.
    for (const request of delivered) await started.cli.waitFor(new RegExp(`delivery ${request.headers["service-event-id"]} .*delivered`));
  });

  it("answers masked and refuses the endpoint URLs, as the library does", () => {
    expectAnswersMasked(sent);
  });

  it("prints request, event and delivery lines from which no PAN can be read", async () => {
    const { stdout, stderr } = await started.cli.stop("SIGTERM");
    expect(stdout).toMatch(/GET \/v1\/payment_intents\/.*\* .* 404/);
    expectNoLeak("the log (stdout)", stdout);
    expectNoLeak("the log (stderr)", stderr);
    expectNoLeak("the database after stopping", databaseText(dbPath));
  });
});

describe("an endpoint URL holding a card number given at start", () => {
  const folder = useTempDir("paysim-disguised-start-", suiteScope());
  const url = `http://127.0.0.1:9${URL_PATHS[0]}`;

  it.each([
    ["--forward-to", "forward", () => ["--forward-to", url]],
    [
      "a config file",
      "config",
      () => {
        const path = join(folder, "config.json");
        writeFileSync(path, JSON.stringify({ companies: [{ name: "Shop", webhook_endpoints: [{ url }] }] }));
        return ["--config", path];
      },
    ],
  ] as const)("is refused by %s before anything is stored, without printing the number", async (_door, name, args) => {
    const dbPath = join(folder, `${name}.db`);
    const result = await useCli(["start", "--no-ui", "--port", "0", "--db", dbPath, ...args()]).exit;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("looks like a card number");
    expectNoLeak("the start error", result.stdout + result.stderr);
    expect(existsSync(dbPath)).toBe(false);
  });
});
