import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp, useTempDir } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import type { TestPaysim } from "../helpers/paysim.js";

const KEY_A = "sk_test_clock_a_0001";
const KEY_B = "sk_test_clock_b_0001";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp(
    {
      config: {
        companies: [
          { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
          { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
    },
    thisFile,
  );
});

const show = (key = KEY_A) => paysim.api("GET", "/v1/sandbox/clock", { key });
const advance = (body: unknown, key = KEY_A) => paysim.api("POST", "/v1/sandbox/clock/advance", { body, key });

describe("GET /v1/sandbox/clock", () => {
  it("answers the clock object", async () => {
    const response = await show();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["now", "object", "offset_seconds", "request_id", "time_scale"]);
    expect(response.body).toMatchObject({ object: "clock", time_scale: 1 });
    expect(response.body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe("POST /v1/sandbox/clock/advance", () => {
  it("moves the instance's clock forward by the seconds given, for every company", async () => {
    const before = (await show()).body;
    const response = await advance({ seconds: 3600 });
    expect(response.status).toBe(200);
    expect(response.body.offset_seconds).toBe(before.offset_seconds + 3600);
    expect(Date.parse(response.body.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);
    const seenByB = (await show(KEY_B)).body;
    expect(seenByB.offset_seconds).toBe(response.body.offset_seconds);
  });

  it("may be moved by any valid key", async () => {
    const response = await advance({ seconds: 1 }, KEY_B);
    expect(response.status).toBe(200);
  });

  it("stamps objects created afterwards with the advanced time", async () => {
    const clock = (await advance({ seconds: 86_400 })).body;
    const created = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: `clock-${Date.now()}`, key: KEY_A });
    expect(Date.parse(created.body.created_at)).toBeGreaterThanOrEqual(Date.parse(clock.now));
  });

  it.each([
    ["zero", { seconds: 0 }, "seconds"],
    ["negative", { seconds: -5 }, "seconds"],
    ["a fraction", { seconds: 1.5 }, "seconds"],
    ["a string", { seconds: "60" }, "seconds"],
    ["over one year", { seconds: 31_536_001 }, "seconds"],
    ["missing", {}, "seconds"],
    ["with an unknown field", { seconds: 1, minutes: 1 }, "minutes"],
  ])("refuses seconds %s with 400 naming %s, leaving the clock where it was", async (_name, body, param) => {
    const before = (await show()).body.offset_seconds;
    expectApiError(await advance(body), 400, "invalid_request", param);
    expect((await show()).body.offset_seconds).toBe(before);
  });

  it("accepts exactly one year", async () => {
    const before = (await show()).body.offset_seconds;
    const response = await advance({ seconds: 31_536_000 });
    expect(response.status).toBe(200);
    expect(response.body.offset_seconds).toBe(before + 31_536_000);
  });
});

describe("the clock across a restart", () => {
  it("never runs backwards: a restart on the same database keeps the time reached", async () => {
    const db = join(useTempDir(), "clock.db");
    const first = await usePaysimApp({ db });
    const moved = (await first.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 7 * 86_400 } })).body;
    await first.close();
    const second = await usePaysimApp({ db, secretKey: first.secretKey });
    const now = (await second.api("GET", "/v1/sandbox/clock")).body;
    expect(Date.parse(now.now)).toBeGreaterThanOrEqual(Date.parse(moved.now));
    expect(now.offset_seconds).toBeGreaterThanOrEqual(7 * 86_400);
  });
});
