import { getPath } from "hono/utils/url";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TIMEOUT_MS,
  faultDraw,
  faultRuleSchema,
  faultRuleSettings,
  hitsMatch,
  createFaultRuleIndex,
  isFaultablePath,
  matchesRequest,
  routedPath,
} from "../../src/domain/faults.js";
import { parseOrThrow } from "../../src/domain/validation.js";
import { refusal } from "../helpers/errors.js";

const ANY = { method: null, path: null };

describe("which requests a fault rule matches", () => {
  it.each([
    ["any /v1 request without a match", ANY, "POST", "/v1/payment_intents", true],
    ["a GET as well", ANY, "GET", "/v1/payouts/po_1", true],
    ["the method named", { method: "POST", path: null }, "POST", "/v1/payouts", true],
    ["not another method", { method: "POST", path: null }, "GET", "/v1/payouts", false],
    ["an exact path", { method: null, path: "/v1/payment_intents" }, "POST", "/v1/payment_intents", true],
    ["not a longer path", { method: null, path: "/v1/payment_intents" }, "POST", "/v1/payment_intents/pi_1/capture", false],
    ["* as one segment", { method: null, path: "/v1/payment_intents/*/capture" }, "POST", "/v1/payment_intents/pi_1/capture", true],
    ["* not as two segments", { method: null, path: "/v1/payment_intents/*/capture" }, "POST", "/v1/payment_intents/a/b/capture", false],
    ["* not as an empty segment", { method: null, path: "/v1/payment_intents/*/capture" }, "POST", "/v1/payment_intents//capture", false],
    ["* not as nothing", { method: null, path: "/v1/payment_intents/*" }, "POST", "/v1/payment_intents", false],
    ["another literal segment", { method: null, path: "/v1/payment_intents/*/capture" }, "POST", "/v1/payment_intents/pi_1/cancel", false],
    ["never a sandbox path, even by a match-all", ANY, "POST", "/v1/sandbox/reset", false],
    ["never a sandbox path through *", { method: null, path: "/v1/*/faults" }, "GET", "/v1/sandbox/faults", false],
    ["never /health", ANY, "GET", "/health", false],
    ["never the checkout page", ANY, "GET", "/checkout/pi_1", false],
    ["never the dashboard", ANY, "GET", "/dashboard", false],
    ["a percent-encoded rule path, as routing reads it", { method: null, path: "/v1/payment%5Fintents" }, "POST", "/v1/payment_intents", true],
    [
      "a percent-encoded request path, as routing reads it",
      { method: null, path: "/v1/payment_intents/*/capture" },
      "POST",
      "/v1/payment%5fintents/pi_1/capture",
      true,
    ],
    ["an encoded / as part of one segment, as routing keeps it", { method: null, path: "/v1/payment_intents/*" }, "GET", "/v1/payment_intents/a%2Fb", true],
    ["%2A in a rule as a literal *, not a wildcard", { method: null, path: "/v1/payment_intents/%2A" }, "GET", "/v1/payment_intents/pi_1", false],
    ["never a sandbox path written encoded", ANY, "POST", "/v1/sandbo%78/reset", false],
  ] as const)("matches %s", (_name, match, method, path, expected) => {
    expect(matchesRequest(match, method, path)).toBe(expected);
  });

  it.each([
    ["/v1/payment_intents", true],
    ["/v1/sandbox", false],
    ["/v1/sandbox/clock/advance", false],
    ["/v1/sandboxes", true],
    ["/v1", false],
    ["/health", false],
  ])("treats %s as faultable: %s", (path, expected) => {
    expect(isFaultablePath(path)).toBe(expected);
  });
});

describe("routedPath: a path as routing reads it", () => {
  it.each([
    ["/v1/payment_intents", "/v1/payment_intents"],
    ["/v1/payment%5Fintents", "/v1/payment_intents"],
    ["/v1/%70ayment_intents", "/v1/payment_intents"],
    ["/v1/payment_intents/a%2Fb", "/v1/payment_intents/a%2Fb"],
    ["/v1/payment_intents/100%25", "/v1/payment_intents/100%25"],
    ["/v1/payment_intents/%E9%5F", "/v1/payment_intents/%E9%5F"],
    ["/v1/payment_intents/%E9/%5F", "/v1/payment_intents/%E9/_"],
    ["/v1/payment_intents/%zz", "/v1/payment_intents/%zz"],
  ])("%s → %s, as Hono's router reads it", (path, expected) => {
    expect(routedPath(path)).toBe(expected);
    expect(getPath(new Request(`http://127.0.0.1${path}`))).toBe(expected);
  });
});

describe("the index of a company's rules", () => {
  const rule = (seq: number, method: string | null, path: string | null) => ({ id: `flt_${seq}`, seq, method, path });

  it("finds exactly the rules a request matches, oldest first, among thousands that do not", () => {
    const index = createFaultRuleIndex();
    for (let i = 0; i < 5000; i++) index.add(rule(1000 + i, "DELETE", `/v1/payouts/*/r${i}`));
    const wanted = [rule(7, null, null), rule(3, "POST", "/v1/payment_intents/*/capture"), rule(5, null, "/v1/*/*/capture"), rule(9, "POST", null)];
    for (const r of wanted) index.add(r);
    index.add(rule(4, "GET", "/v1/payment_intents/*/capture"));
    expect(index.matching("POST", "/v1/payment_intents/pi_1/capture").map((r) => r.seq)).toEqual([3, 5, 7, 9]);
    expect(index.matching("DELETE", "/v1/payouts/po_1/r4999").map((r) => r.seq)).toEqual([7, 5999]);
    expect(index.matching("GET", "/v1/sandbox/faults")).toEqual([]);
  });

  it("forgets a removed rule, and a company without rules matches nothing", () => {
    const index = createFaultRuleIndex();
    expect(index.matching("POST", "/v1/payment_intents")).toEqual([]);
    index.add(rule(1, null, "/v1/payment_intents"));
    index.add(rule(2, null, "/v1/payment_intents"));
    index.remove("flt_1");
    expect(index.matching("POST", "/v1/payment_intents").map((r) => r.seq)).toEqual([2]);
    expect(index.size).toBe(1);
  });
});

describe("the seeded draw", () => {
  it("is a pure function of the seed and the ordinal, in [0, 1)", () => {
    for (let ordinal = 0; ordinal < 200; ordinal++) {
      const draw = faultDraw(7, ordinal);
      expect(draw).toBe(faultDraw(7, ordinal));
      expect(draw).toBeGreaterThanOrEqual(0);
      expect(draw).toBeLessThan(1);
    }
    expect(faultDraw(7, 0)).not.toBe(faultDraw(8, 0));
  });

  it("hits always at probability 1 and never at 0", () => {
    for (let ordinal = 0; ordinal < 50; ordinal++) {
      expect(hitsMatch({ probability: 1, seed: 3 }, ordinal)).toBe(true);
      expect(hitsMatch({ probability: 0, seed: 3 }, ordinal)).toBe(false);
    }
  });

  it("hits about the share the probability asks for", () => {
    const hits = Array.from({ length: 2000 }, (_, ordinal) => hitsMatch({ probability: 0.3, seed: 42 }, ordinal)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(500);
    expect(hits).toBeLessThan(700);
  });
});

describe("the rule's schema", () => {
  it("fills in the defaults: times 1, probability 1, seed 0, any method and path", () => {
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, { fault: "server_error" }))).toEqual({
      fault: "server_error",
      method: null,
      path: null,
      times: 1,
      probability: 1,
      latencyMs: null,
      retryAfterSeconds: null,
      seed: 0,
    });
  });

  it("gives a rate_limited a Retry-After of 1 second unless told, 0 included", () => {
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, { fault: "rate_limited" })).retryAfterSeconds).toBe(1);
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, { fault: "rate_limited", retry_after_seconds: 0 })).retryAfterSeconds).toBe(0);
  });

  it("gives a timeout 30 s unless told, and keeps what a latency asks for", () => {
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, { fault: "timeout" })).latencyMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, { fault: "timeout", latency_ms: 250 })).latencyMs).toBe(250);
    const latency = {
      fault: "latency",
      latency_ms: 60_000,
      match: { method: "POST", path: "/v1/payment_intents/*/capture" },
      times: 10_000,
      probability: 0,
      seed: -5,
    };
    expect(faultRuleSettings(parseOrThrow(faultRuleSchema, latency))).toEqual({
      fault: "latency",
      method: "POST",
      path: "/v1/payment_intents/*/capture",
      times: 10_000,
      probability: 0,
      latencyMs: 60_000,
      retryAfterSeconds: null,
      seed: -5,
    });
  });

  it.each([
    ["no fault", {}, "fault"],
    ["an unknown fault", { fault: "explode" }, "fault"],
    ["a fault of the wrong type", { fault: 1 }, "fault"],
    ["an unknown field", { fault: "server_error", delay: 5 }, "delay"],
    ["an unknown field in match", { fault: "server_error", match: { verb: "GET" } }, "match.verb"],
    ["match not an object", { fault: "server_error", match: "/v1/payouts" }, "match"],
    ["a lower-case method", { fault: "server_error", match: { method: "post" } }, "match.method"],
    ["an unknown method", { fault: "server_error", match: { method: "FETCH" } }, "match.method"],
    ["a path outside /v1", { fault: "server_error", match: { path: "/health" } }, "match.path"],
    ["a path with a query", { fault: "server_error", match: { path: "/v1/payouts?limit=1" } }, "match.path"],
    ["a path with an empty segment", { fault: "server_error", match: { path: "/v1//payouts" } }, "match.path"],
    ["a path with a trailing slash", { fault: "server_error", match: { path: "/v1/payouts/" } }, "match.path"],
    ["a * inside a segment", { fault: "server_error", match: { path: "/v1/pay*" } }, "match.path"],
    ["a sandbox path", { fault: "server_error", match: { path: "/v1/sandbox/reset" } }, "match.path"],
    ["a path too long", { fault: "server_error", match: { path: `/v1/${"a".repeat(1000)}` } }, "match.path"],
    ["times 0", { fault: "server_error", times: 0 }, "times"],
    ["times over 10,000", { fault: "server_error", times: 10_001 }, "times"],
    ["fractional times", { fault: "server_error", times: 1.5 }, "times"],
    ["a probability over 1", { fault: "server_error", probability: 1.01 }, "probability"],
    ["a negative probability", { fault: "server_error", probability: -0.1 }, "probability"],
    ["a probability as text", { fault: "server_error", probability: "0.5" }, "probability"],
    ["a latency without latency_ms", { fault: "latency" }, "latency_ms"],
    ["latency_ms 0", { fault: "latency", latency_ms: 0 }, "latency_ms"],
    ["latency_ms over 60,000", { fault: "timeout", latency_ms: 60_001 }, "latency_ms"],
    ["latency_ms on a fault that does not wait", { fault: "server_error", latency_ms: 100 }, "latency_ms"],
    ["a fractional seed", { fault: "server_error", seed: 0.5 }, "seed"],
  ])("refuses %s, naming the field", (_name, input, param) => {
    const error = refusal(faultRuleSchema, input);
    expect({ code: error.code, param: error.param }).toEqual({ code: "invalid_request", param });
  });
});
