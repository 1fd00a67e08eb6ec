import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope } from "../../helpers/disposables.js";
import type { TestPaysim } from "../../helpers/paysim.js";
import { ACME_KEY, csrfOf, DashboardClient, GLOBEX_KEY, signedIn, textOf, useTwoCompanies } from "./helpers.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
let client: DashboardClient;

beforeAll(async () => {
  paysim = await useTwoCompanies(thisFile);
  client = await signedIn(paysim);
});

const endpointsOf = async (key: string) => (await paysim.api("GET", "/v1/webhook_endpoints", { key })).body.data as any[];
const rulesOf = async (key: string) => (await paysim.api("GET", "/v1/sandbox/faults", { key })).body.data as any[];

describe("webhook endpoints: add with chaos", () => {
  it("stores the chaos fields as the API's chaos object and lists each endpoint's chaos", async () => {
    const added = await client.submit("/webhook_endpoints", {
      url: "http://127.0.0.1:9/chaotic",
      chaos_duplicate: "0.2",
      chaos_reorder: "0.5",
      chaos_delay_min: "100",
      chaos_delay_max: "3000",
      chaos_seed: "42",
    });
    expect(textOf(added.html)).toContain("Added http://127.0.0.1:9/chaotic with chaos (duplicate 20% · reorder 50% · delay 100–3000 ms · seed 42)");
    const endpoint = (await endpointsOf(ACME_KEY)).find((e) => e.url === "http://127.0.0.1:9/chaotic");
    expect(endpoint.chaos).toEqual({ duplicate: 0.2, reorder: 0.5, delay_ms: [100, 3000], seed: 42 });
    const row = textOf(/<tr id="endpoint-[^"]+">[\s\S]*?<\/tr>/.exec(added.html.slice(added.html.indexOf("http://127.0.0.1:9/chaotic") - 400))![0]);
    expect(row).toContain("duplicate 20% · reorder 50% · delay 100–3000 ms · seed 42");
  });

  it("fills the API's defaults for the chaos fields left empty, and adds no chaos when all are empty", async () => {
    await client.submit("/webhook_endpoints", { url: "http://127.0.0.1:9/dup-only", chaos_duplicate: "1" });
    await client.submit("/webhook_endpoints", {
      url: "http://127.0.0.1:9/calm",
      chaos_duplicate: "",
      chaos_reorder: "",
      chaos_delay_min: "",
      chaos_delay_max: "",
      chaos_seed: "",
    });
    const endpoints = await endpointsOf(ACME_KEY);
    expect(endpoints.find((e) => e.url === "http://127.0.0.1:9/dup-only").chaos).toEqual({ duplicate: 1, reorder: 0, delay_ms: [0, 0], seed: 0 });
    expect(endpoints.find((e) => e.url === "http://127.0.0.1:9/calm").chaos).toBeNull();
  });

  it("refuses bad chaos with the API's own message in words, and adds nothing", async () => {
    const before = (await endpointsOf(ACME_KEY)).length;
    const cases: [Record<string, string>, string][] = [
      [{ chaos_duplicate: "1.5" }, "chaos.duplicate must be a number from 0 to 1 (got 1.5)."],
      [{ chaos_reorder: "often" }, "chaos.reorder must be a number from 0 to 1 (got a string)."],
      [{ chaos_delay_min: "500", chaos_delay_max: "100" }, "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max"],
      [{ chaos_delay_max: "70000" }, "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000"],
      [{ chaos_seed: "1.5" }, "chaos.seed must be an integer"],
    ];
    for (const [fields, message] of cases) {
      const answer = await client.submit("/webhook_endpoints", { url: "http://127.0.0.1:9/refused", ...fields });
      expect(textOf(answer.html)).toContain(message);
    }
    // The same body through the API gets the same words.
    const api = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/refused", chaos: { duplicate: 1.5 } }, key: ACME_KEY });
    expect(api.status).toBe(400);
    expect(api.body.error.message).toBe("chaos.duplicate must be a number from 0 to 1 (got 1.5).");
    expect((await endpointsOf(ACME_KEY)).length).toBe(before);
  });
});

describe("the Faults page", () => {
  it("adds a rule from the form as the API would, lists it, and the rule then fails a matching API call", async () => {
    const added = await client.submit("/faults", {
      fault: "server_error",
      method: "POST",
      path: "/v1/payment_intents",
      times: "2",
      probability: "",
      latency_ms: "",
      seed: "",
    });
    const [rule] = await rulesOf(ACME_KEY);
    expect(rule).toMatchObject({
      fault: "server_error",
      match: { method: "POST", path: "/v1/payment_intents" },
      times: 2,
      remaining: 2,
      probability: 1,
      latency_ms: null,
    });
    const text = textOf(added.html);
    expect(text).toContain(`Added ${rule.id}: server_error on POST /v1/payment_intents, 2 times.`);
    expect(text).toContain("POST /v1/payment_intents");
    expect(text).toContain("2 of 2");
    const failed = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 100, currency: "EUR" }, key: ACME_KEY });
    expect(failed.status).toBe(500);
    expect(failed.body.error.message).toContain(rule.id);
    expect(textOf((await client.get("/faults")).html)).toContain("1 of 2");
    await paysim.api("DELETE", "/v1/sandbox/faults", { key: ACME_KEY });
  });

  it("adds a latency rule with every field, shown in the list", async () => {
    await client.submit("/faults", { fault: "latency", method: "", path: "/v1/payouts/*", times: "5", probability: "0.5", latency_ms: "1500", seed: "7" });
    const [rule] = await rulesOf(ACME_KEY);
    expect(rule).toMatchObject({ fault: "latency", match: { method: null, path: "/v1/payouts/*" }, times: 5, probability: 0.5, latency_ms: 1500 });
    const text = textOf((await client.get("/faults")).html);
    expect(text).toContain("any method /v1/payouts/*");
    expect(text).toContain("1500 ms");
    await paysim.api("DELETE", "/v1/sandbox/faults", { key: ACME_KEY });
  });

  it("refuses bad input with the API's own message in words, and adds nothing", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ fault: "explode" }, "fault must be one of server_error, rate_limited, lost_response, timeout, latency."],
      [{ fault: "server_error", times: "0" }, "times must be an integer from 1 to 10000."],
      [{ fault: "server_error", times: "many" }, "times must be an integer from 1 to 10000 (got a string)."],
      [{ fault: "server_error", probability: "2" }, "probability must be a number from 0 to 1."],
      [{ fault: "server_error", path: "/v1/sandbox/clock" }, "match.path may not name /v1/sandbox/…"],
      [{ fault: "server_error", path: "payment_intents" }, "match.path must be a /v1/… path"],
      [{ fault: "latency" }, "latency_ms is required for the latency fault"],
      [{ fault: "server_error", latency_ms: "100" }, "latency_ms applies only to the latency and timeout faults"],
      [{ fault: "server_error", method: "BREW" }, "match.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE."],
    ];
    for (const [fields, message] of cases) {
      const answer = await client.submit("/faults", fields);
      expect(textOf(answer.html), JSON.stringify(fields)).toContain(message);
    }
    expect(await rulesOf(ACME_KEY)).toEqual([]);
  });

  it("removes one rule and clears all, as the API's DELETEs do", async () => {
    for (const fault of ["server_error", "rate_limited", "lost_response"]) await client.submit("/faults", { fault });
    const [first, second, third] = await rulesOf(ACME_KEY);
    const removed = await client.submit(`/faults/${second.id}/delete`);
    expect(textOf(removed.html)).toContain(`Removed ${second.id}.`);
    expect((await rulesOf(ACME_KEY)).map((r) => r.id)).toEqual([first.id, third.id]);
    const cleared = await client.submit("/faults/clear");
    expect(textOf(cleared.html)).toContain("Cleared 2 rules.");
    expect(textOf(cleared.html)).toContain("No fault rules");
    expect(await rulesOf(ACME_KEY)).toEqual([]);
  });

  it("never shows or removes another company's rule, and Clear all leaves it alone", async () => {
    const foreign = (await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "rate_limited", match: { path: "/v1/payouts" } }, key: GLOBEX_KEY })).body;
    await client.submit("/faults", { fault: "server_error" });
    const page = await client.get("/faults");
    expect(page.html).not.toContain(foreign.id);
    expect(textOf(page.html)).not.toContain("rate_limited any method /v1/payouts");
    const refused = await client.post(`/faults/${foreign.id}/delete`, { csrf: csrfOf(page.html) });
    expect(refused.status).toBe(404);
    await client.submit("/faults/clear");
    expect((await rulesOf(GLOBEX_KEY)).map((r) => r.id)).toEqual([foreign.id]);
    await paysim.api("DELETE", "/v1/sandbox/faults", { key: GLOBEX_KEY });
  });

  it("refuses each form without its token or from another origin, changing nothing", async () => {
    await client.submit("/faults", { fault: "server_error", path: "/v1/payouts" });
    const [rule] = await rulesOf(ACME_KEY);
    const token = csrfOf((await client.get("/faults")).html);
    const posts: [string, Record<string, string>][] = [
      ["/faults", { fault: "rate_limited" }],
      [`/faults/${rule.id}/delete`, {}],
      ["/faults/clear", {}],
      ["/webhook_endpoints", { url: "http://127.0.0.1:9/csrf-chaos", chaos_duplicate: "1" }],
    ];
    for (const [path, fields] of posts) {
      for (const answer of [
        await client.post(path, fields),
        await client.post(path, { ...fields, csrf: token }, { origin: "http://localhost:3000" }),
        await new DashboardClient(paysim).post(client.base + path, { ...fields, csrf: token }),
      ]) {
        expect(answer.status, path).toBe(403);
        expect(textOf(answer.html)).toContain("This form could not be verified");
      }
    }
    expect((await rulesOf(ACME_KEY)).map((r) => r.id)).toEqual([rule.id]);
    expect((await endpointsOf(ACME_KEY)).map((e) => e.url)).not.toContain("http://127.0.0.1:9/csrf-chaos");
    await paysim.api("DELETE", "/v1/sandbox/faults", { key: ACME_KEY });
  });

  it("is one entry of the navigation", async () => {
    const page = await client.get("/faults");
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<a href="${client.base}/faults" aria-current="page">Faults</a>`);
  });
});
