import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startPaysim } from "../../src/index.js";
import { defer, usePaysimApp, useTempPath } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { signedIn, textOf } from "./dashboard/helpers.js";

/** Every way a PAN could sit in a file: the digits alone, split by spaces or hyphens, or the first 12 digits. */
function panForms(pan: string): string[] {
  const groups = pan.match(/.{1,4}/g)!;
  return [pan, groups.join(" "), groups.join("-"), pan.slice(0, 12)];
}

/** The forms of `pans` found in the database file or its WAL. */
function leaksIn(dbPath: string, pans: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of [dbPath, `${dbPath}-wal`]) {
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (const pan of pans) for (const form of panForms(pan)) if (bytes.includes(Buffer.from(form, "utf8"))) found.push(`${form} in ${path}`);
  }
  return found;
}

// One PAN per way in, so that a leak names its door.
const API_PATH_PAN = "4111111111111111";
const FORM_PATH_PAN = "5555555555554444";
const FORM_CHAOS_PAN = "4000056655665556";
const QUERY_PAN = "378282246310005";
const CONFIG_PAN = "6011111111111117";
const HELPER_PAN = "4242424242424242";

const CARD_NUMBER_REFUSAL = "match.path holds a card number, which paysim never stores";

describe("every way in masks card numbers the same (issue 28 item 1)", () => {
  it("API, dashboard forms and queries, and the config file: no PAN is stored, listed or shown", async () => {
    const dbPath = useTempPath();
    const paysim = await usePaysimApp({
      db: dbPath,
      config: { companies: [{ name: `Acme ${CONFIG_PAN}`, currency: "EUR", secret_key: "sk_test_every_door_0001", webhook_endpoints: [] }] },
    });

    // The API: the path's PAN is masked on entry, and a rule for a masked path is refused by name.
    const api = await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "server_error", match: { path: `/v1/payment_intents/${API_PATH_PAN}` } } });
    expectApiError(api, 400, "invalid_request", "match.path");
    expect(api.body.error.message).toContain(CARD_NUMBER_REFUSAL);
    expect(api.text).not.toContain(API_PATH_PAN);

    // The dashboard's Faults form: the same refusal, in words, and nothing stored.
    const client = await signedIn(paysim);
    const faultsPage = await client.submit("/faults", {
      fault: "server_error",
      method: "",
      path: `/v1/payment_intents/${FORM_PATH_PAN}`,
      times: "",
      probability: "",
      latency_ms: "",
      seed: "",
    });
    expect(textOf(faultsPage.html)).toContain(CARD_NUMBER_REFUSAL);
    expect(faultsPage.html).not.toContain(FORM_PATH_PAN);
    expect((await paysim.api("GET", "/v1/sandbox/faults")).body.data).toEqual([]);

    // A number field of a dashboard form the API's message repeats: shown masked, as the API shows it.
    const endpointsPage = await client.submit("/webhook_endpoints", { url: "http://127.0.0.1:9/hook", chaos_duplicate: FORM_CHAOS_PAN });
    expect(textOf(endpointsPage.html)).toContain(`chaos.duplicate must be a number from 0 to 1 (got ${"*".repeat(12)}5556).`);
    expect(endpointsPage.html).not.toContain(FORM_CHAOS_PAN);
    const apiChaos = await paysim.api("POST", "/v1/webhook_endpoints", {
      body: { url: "http://127.0.0.1:9/hook", chaos: { duplicate: Number(FORM_CHAOS_PAN) } },
    });
    expect(apiChaos.body.error.message).toBe(`chaos.duplicate must be a number from 0 to 1 (got ${"*".repeat(12)}5556).`);

    // A dashboard query the page repeats.
    const eventsPage = await client.get(`/events?type=${QUERY_PAN}`);
    expect(eventsPage.status).toBe(400);
    expect(textOf(eventsPage.html)).toContain(`"${"*".repeat(11)}0005" is not an event type.`);
    expect(eventsPage.html).not.toContain(QUERY_PAN);

    // The config file's company name: stored and shown masked.
    expect(paysim.companies[0]!.company.name).toBe(`Acme ${"*".repeat(12)}1117`);
    expect(textOf((await client.get("/events")).html)).toContain(`Acme ${"*".repeat(12)}1117`);

    await paysim.close();
    expect(existsSync(dbPath)).toBe(true);
    expect(leaksIn(dbPath, [API_PATH_PAN, FORM_PATH_PAN, FORM_CHAOS_PAN, QUERY_PAN, CONFIG_PAN])).toEqual([]);
  });

  it("faults.add() on the startPaysim() object refuses the same path the API refuses, and stores nothing", async () => {
    const dbPath = useTempPath();
    const paysim = await startPaysim({ db: dbPath });
    defer(() => paysim.close());
    const added = paysim.faults.add({ fault: "server_error", match: { path: `/v1/payment_intents/${HELPER_PAN}` } });
    await expect(added).rejects.toThrow(`faults.add: ${CARD_NUMBER_REFUSAL}`);
    await expect(added).rejects.toThrow("(field: match.path)");
    await expect(added).rejects.not.toThrow(HELPER_PAN);
    const listed = await fetch(`${paysim.url}/v1/sandbox/faults`, { headers: { Authorization: `Bearer ${paysim.secretKey}` } });
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
    await paysim.close();
    expect(existsSync(dbPath)).toBe(true);
    expect(leaksIn(dbPath, [HELPER_PAN])).toEqual([]);
  });
});
