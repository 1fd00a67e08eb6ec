import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
/** Ids in creation order (oldest first). */
const created: string[] = [];
const STATES_BY_INDEX = (i: number) => (i % 5 === 0 ? "canceled" : i % 3 === 0 ? "authorized" : "created");

beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
  for (let i = 0; i < 23; i++) {
    const intent = await createIntent(paysim, { amount: 100 + i, capture_method: "manual" });
    created.push(intent.id);
    const state = STATES_BY_INDEX(i);
    if (state === "canceled") await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`);
    if (state === "authorized") await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`);
  }
});

const newestFirst = () => [...created].reverse();
const list = (query = "") => paysim.api("GET", `/v1/payment_intents${query}`);

describe("GET /v1/payment_intents", () => {
  it("answers the list envelope with the 10 newest, newest first, by default", async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: "list", has_more: true });
    expect(response.body.request_id).toBe(response.headers.get("request-id"));
    expect(response.body.data.map((pi: any) => pi.id)).toEqual(newestFirst().slice(0, 10));
    expect(response.body.data[0]).toMatchObject({ object: "payment_intent", amount: 122 });
    expect(response.body.data[0].request_id).toBeUndefined();
  });

  it.each([1, 5, 23, 100])("honours limit=%i", async (limit) => {
    const response = await list(`?limit=${limit}`);
    expect(response.body.data.map((pi: any) => pi.id)).toEqual(newestFirst().slice(0, limit));
    expect(response.body.has_more).toBe(limit < created.length);
  });

  it("walks every page with starting_after, each object exactly once, has_more false on the last", async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = await list(`?limit=7${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((pi: any) => pi.id));
      hasMore.push(response.body.has_more);
      if (!response.body.has_more) break;
      cursor = response.body.data.at(-1).id;
    }
    expect(seen).toEqual(newestFirst());
    expect(hasMore).toEqual([true, true, true, false]);
  });

  it("answers an empty last page after the oldest object", async () => {
    const response = await list(`?starting_after=${created[0]}`);
    expect(response.body).toMatchObject({ data: [], has_more: false });
  });

  it.each(["created", "authorized", "canceled"])("filters on state=%s, newest first", async (state) => {
    const expected = newestFirst().filter((id) => STATES_BY_INDEX(created.indexOf(id)) === state);
    const response = await list(`?state=${state}&limit=100`);
    expect(response.body.data.map((pi: any) => pi.id)).toEqual(expected);
    expect(response.body.data.every((pi: any) => pi.state === state)).toBe(true);
  });

  it("pages through a state filter with starting_after", async () => {
    const expected = newestFirst().filter((id) => STATES_BY_INDEX(created.indexOf(id)) === "created");
    const first = await list("?state=created&limit=3");
    expect(first.body.has_more).toBe(true);
    const second = await list(`?state=created&limit=100&starting_after=${first.body.data.at(-1).id}`);
    expect([...first.body.data, ...second.body.data].map((pi: any) => pi.id)).toEqual(expected);
    expect(second.body.has_more).toBe(false);
  });

  it("answers an empty list for a state no intent is in", async () => {
    const response = await list("?state=failed");
    expect(response.body).toMatchObject({ object: "list", data: [], has_more: false });
  });
});

describe("GET /v1/payment_intents refuses a bad query with its param", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["limit=", "limit"],
    ["state=paid", "state"],
    ["state=CREATED", "state"],
    ["status=created", "status"],
    ["foo=1", "foo"],
    ["starting_after=pi_ZZZZZZZZZZZZZZZZZZZZZZZZ", "starting_after"],
    ["starting_after=not-an-id", "starting_after"],
  ])("?%s → 400 invalid_request, param %s", async (query, param) => {
    const response = await list(`?${query}`);
    expectApiError(response, 400, "invalid_request", param);
  });

  it("refuses a query every time, and one list's query on another, however often it was accepted", async () => {
    // Parsed queries are remembered per list: a query valid on one list must still be refused on another.
    for (let i = 0; i < 3; i++) expect((await list("?state=created&limit=2")).status).toBe(200);
    for (let i = 0; i < 2; i++) expectApiError(await paysim.api("GET", "/v1/events?state=created&limit=2"), 400, "invalid_request", "state");
    for (let i = 0; i < 2; i++) expectApiError(await list("?limit=0"), 400, "invalid_request", "limit");
  });

  it("refuses an event id as a payment intent cursor", async () => {
    const events = await paysim.api("GET", "/v1/events?limit=1");
    const response = await list(`?starting_after=${events.body.data[0].id}`);
    expectApiError(response, 400, "invalid_request", "starting_after");
  });
});
