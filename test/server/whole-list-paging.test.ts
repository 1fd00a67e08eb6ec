// The lists held whole (webhook endpoints, fault rules, instances) take `limit` and
// `starting_after` as every other list does (docs/api.md), in their own order, oldest first.
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
/** Each list's ids in creation order (oldest first), as the list shows them. */
const created: Record<string, string[]> = {};

const LISTS = ["/v1/webhook_endpoints", "/v1/sandbox/faults", "/v1/sandbox/instances"] as const;
const COUNT = 5;

beforeAll(async () => {
  paysim = await usePaysim({}, thisFile);
  const make = async (path: string, body: object) => {
    const answer = await paysim.api("POST", path, { body, idempotencyKey: freshKey() });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.id as string;
  };
  for (const list of LISTS) created[list] = [];
  for (let i = 0; i < COUNT; i++) {
    created["/v1/webhook_endpoints"]!.push(await make("/v1/webhook_endpoints", { url: `http://127.0.0.1:9/hook-${i}` }));
    // Rules that match no path a test calls, so none of them answers for the lists.
    created["/v1/sandbox/faults"]!.push(await make("/v1/sandbox/faults", { fault: "server_error", match: { path: `/v1/payouts/po_${i}` } }));
    created["/v1/sandbox/instances"]!.push(await make("/v1/sandbox/instances", {}));
  }
});

describe.each(LISTS)("GET %s", (path) => {
  const list = (query: string) => paysim.api("GET", `${path}${query}`);

  it("honours limit, and walks every page with starting_after, each object once, has_more false on the last", async () => {
    const first = await list("?limit=1");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ object: "list", has_more: true });
    expect(first.body.data.map((item: any) => item.id)).toEqual(created[path]!.slice(0, 1));

    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < COUNT; page++) {
      const answer = await list(`?limit=2${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(answer.status, answer.text).toBe(200);
      seen.push(...answer.body.data.map((item: any) => item.id));
      hasMore.push(answer.body.has_more);
      if (!answer.body.has_more) break;
      cursor = answer.body.data.at(-1).id;
    }
    expect(seen).toEqual(created[path]);
    expect(hasMore).toEqual([true, true, false]);
  });

  it("answers an empty last page after the newest object, and the whole list (up to 10) by default", async () => {
    const after = await list(`?starting_after=${created[path]!.at(-1)}`);
    expect(after.body).toMatchObject({ data: [], has_more: false });
    const plain = await list("");
    expect(plain.body.data.map((item: any) => item.id)).toEqual(created[path]);
    expect(plain.body.has_more).toBe(false);
  });

  it.each([
    ["?limit=0", "limit", "limit must be an integer from 1 to 100."],
    ["?limit=101", "limit", "limit must be an integer from 1 to 100."],
    ["?starting_after=pi_000000000000000000000000", "starting_after", "starting_after must be the id of an object in this list"],
    ["?nope=1", "nope", 'Unknown field "nope"'],
  ])("refuses %s naming %s", async (query, param, message) => {
    const answer = await list(query);
    expectApiError(answer, 400, "invalid_request", param);
    expect(answer.body.error.message).toContain(message);
  });
});

describe("the OpenAPI document", () => {
  it("declares limit and starting_after on every list", async () => {
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const lists = Object.entries(document.paths as Record<string, any>).filter(([, item]) => {
      const schema = item.get?.responses?.["200"]?.content?.["application/json"]?.schema;
      const resolved = schema?.$ref ? document.components.schemas[schema.$ref.split("/").at(-1)] : schema;
      return resolved?.properties?.object?.const === "list" || resolved?.properties?.object?.enum?.[0] === "list";
    });
    expect(lists.map(([path]) => path).sort()).toEqual(
      ["/v1/events", "/v1/payment_intents", "/v1/payouts", "/v1/sandbox/faults", "/v1/sandbox/instances", "/v1/webhook_endpoints"].sort(),
    );
    for (const [path, item] of lists) {
      const names = (item.get.parameters as { name: string; in: string }[]).filter((p) => p.in === "query").map((p) => p.name);
      expect(names, path).toEqual(expect.arrayContaining(["limit", "starting_after"]));
    }
  });
});
