import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint } from "../../src/shared/canonical-json.js";

describe("canonicalJson", () => {
  it.each([
    ["keys sorted at the top level", { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ["keys sorted at every depth", { z: { y: 1, x: [{ d: 3, c: 4 }] }, a: null }, '{"a":null,"z":{"x":[{"c":4,"d":3}],"y":1}}'],
    ["array order kept", [3, 1, 2], "[3,1,2]"],
    ["undefined members left out", { a: undefined, b: 1 }, '{"b":1}'],
    ["strings escaped as JSON", { s: 'quote " and \\ and \n' }, '{"s":"quote \\" and \\\\ and \\n"}'],
    ["unicode kept", { s: "é€" }, '{"s":"é€"}'],
    ["an empty object", {}, "{}"],
    ["a bare number", 42, "42"],
    ["null", null, "null"],
    ["a boolean", false, "false"],
    ["undefined as null", undefined, "null"],
  ])("%s", (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it("gives the same text for objects that differ only in key order", () => {
    expect(canonicalJson({ amount: 1000, currency: "EUR", meta: { b: 1, a: 2 } })).toBe(canonicalJson({ meta: { a: 2, b: 1 }, currency: "EUR", amount: 1000 }));
  });

  it("parses back to an equal value", () => {
    const value = { b: [1, { y: "2", x: null }], a: true };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

describe("fingerprint", () => {
  it("is a SHA-256 hex digest", () => {
    expect(fingerprint({ amount: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ignores key order", () => {
    expect(fingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprint({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it.each([
    [{ amount: 1000 }, { amount: 1001 }],
    [{ amount: 1000 }, { amount: "1000" }],
    [{ amount: 1000 }, { amount: 1000, currency: "EUR" }],
    [
      [1, 2],
      [2, 1],
    ],
    [{}, []],
  ])("differs for different bodies (%j vs %j)", (a, b) => {
    expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it("does not contain the body in clear", () => {
    expect(fingerprint({ description: "secret text" })).not.toContain("secret");
  });
});
