import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskText, maskValue } from "../../src/domain/masking.js";

const digits = (n: number) => Array.from({ length: n }, (_, i) => String((i + 1) % 10)).join("");

describe("maskText", () => {
  it.each([
    ["a plain 16-digit PAN", "4242424242424242", "************4242"],
    ["a PAN split by single spaces", "4242 4242 4242 4242", "**** **** **** 4242"],
    ["a PAN split by single hyphens", "4242-4242-4242-4242", "****-****-****-4242"],
    ["a PAN with mixed single separators", "4242-4242 4242-4242", "****-**** ****-4242"],
    ["a PAN inside a sentence", "paid with 5555555555554444 today", "paid with ************4444 today"],
    ["a 15-digit Amex number", "378282246310005", "***********0005"],
    ["a run of exactly 13 digits", digits(13), `${"*".repeat(9)}${digits(13).slice(-4)}`],
    ["a run of exactly 19 digits", digits(19), `${"*".repeat(15)}${digits(19).slice(-4)}`],
    ["a run of 20 digits (a PAN with digits glued on)", digits(20), `${"*".repeat(16)}${digits(20).slice(-4)}`],
    ["a run of 40 digits", digits(40), `${"*".repeat(36)}${digits(40).slice(-4)}`],
    ["two PANs in one text", "a 4242424242424242 b 5555555555554444", "a ************4242 b ************4444"],
  ])("masks %s, keeping the last 4 digits", (_name, input, expected) => {
    expect(maskText(input)).toBe(expected);
  });

  it.each([
    ["a run of 12 digits", digits(12)],
    ["a short order number", "Order 42"],
    ["a date", "2024-01-31"],
    ["a phone number with spaces", "+33 6 12 34 56 78"],
    ["an empty string", ""],
    ["digits separated by double spaces (not one run)", "4242  4242  4242"],
    ["an ISO timestamp (17 digits, none in a run of 13)", "2026-11-21T09:45:42.123Z"],
    ["runs of 12 digits split by a letter", `${digits(12)}x${digits(12)}`],
    ["a run ending in a separator", `${digits(12)}- 1`],
  ])("leaves %s untouched", (_name, input) => {
    expect(maskText(input)).toBe(input);
  });

  it("changes exactly what a regex over every digit run would change, on any mix of digits, separators and letters", () => {
    const reference = (text: string) =>
      text.replace(/\d(?:[ -]?\d)*/g, (run) => (run.replace(/\D/g, "").length >= 13 ? `<${run}>` : run));
    fc.assert(
      fc.property(fc.array(fc.constantFrom("4", "2", "0", " ", "-", "a", ".", "  "), { maxLength: 60 }), (parts) => {
        const text = parts.join("");
        const masked = maskText(text);
        expect(masked === text).toBe(reference(text) === text);
        expect(masked.replace(/\*/g, "0").length).toBe(text.length);
      }),
      { numRuns: 2000 },
    );
  });

  it("never leaves more than 4 digits of a PAN visible whatever its separators", () => {
    for (const input of ["4242424242424242", "4242 4242 4242 4242", "4242-4242-4242-4242"]) {
      expect(maskText(input).replace(/\D/g, "")).toBe("4242");
    }
  });
});

describe("maskValue", () => {
  it("masks PANs in every string at any depth, arrays included", () => {
    const input = { a: "4242424242424242", b: { c: ["x 4242 4242 4242 4242", { d: "4242-4242-4242-4242" }] } };
    expect(maskValue(input)).toEqual({
      a: "************4242",
      b: { c: ["x **** **** **** 4242", { d: "****-****-****-4242" }] },
    });
  });

  it.each(["cvv", "cvc", "security_code", "CVV", "Cvc", "SECURITY_CODE"])("drops a field named %s at any depth", (field) => {
    expect(maskValue({ [field]: "123", keep: 1, card: { [field]: 456, last4: "4242" } })).toEqual({ keep: 1, card: { last4: "4242" } });
  });

  it.each([
    ["pan", { pan: "4242424242424242" }, { pan: "************4242" }],
    ["card_number", { card_number: "4242 4242 4242 4242" }, { card_number: "**** **** **** 4242" }],
    ["card.number", { card: { number: "4242424242424242" } }, { card: { number: "************4242" } }],
    ["a short pan (masked whatever its length)", { pan: "42424242" }, { pan: "****4242" }],
    ["a numeric card_number", { card_number: 4242424242424242 }, { card_number: "************4242" }],
    ["PAN (upper case field name)", { PAN: "1234567890" }, { PAN: "******7890" }],
  ])("masks a card-number field: %s", (_name, input, expected) => {
    expect(maskValue(input)).toEqual(expected);
  });

  it("does not treat a field named number outside a card as a card number", () => {
    expect(maskValue({ number: "12345678", order: { number: "98765432" } })).toEqual({ number: "12345678", order: { number: "98765432" } });
  });

  it("turns an integer long enough to be a PAN into a masked string", () => {
    expect(maskValue({ amount: 4242424242424242 })).toEqual({ amount: "************4242" });
    expect(maskValue(4000000000000002)).toBe("************0002");
    expect(maskValue(1_000_000_000_000)).toBe("*********0000");
    expect(maskValue(-4242424242424242)).toBe("-************4242");
  });

  it("masks a number whose text holds a 13-digit run even when the number is small", () => {
    // 0.1234567890123456 prints with 16 digits after the point.
    expect(maskValue(0.1234567890123456)).toBe("0.************3456");
  });

  it("keeps ordinary numbers, booleans and null as they are", () => {
    expect(maskValue({ amount: 1000, big: 999_999_999_999, ok: true, none: null, f: 1.5 })).toEqual({
      amount: 1000,
      big: 999_999_999_999,
      ok: true,
      none: null,
      f: 1.5,
    });
  });

  it("masks a PAN used as a field name", () => {
    expect(maskValue({ "4242424242424242": "x" })).toEqual({ "************4242": "x" });
  });

  it("keeps a parsed __proto__ key as an own field at any depth: no key becomes a prototype", () => {
    const masked = maskValue(JSON.parse('{"__proto__":{"amount":1},"inner":[{"__proto__":{"card_number":"4242424242424242"}}]}')) as any;
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(masked.amount).toBeUndefined();
    expect(Object.keys(masked)).toEqual(["__proto__", "inner"]);
    expect(Object.getOwnPropertyDescriptor(masked, "__proto__")?.value).toEqual({ amount: 1 });
    const inner = masked.inner[0];
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(JSON.stringify(inner)).toBe('{"__proto__":{"card_number":"************4242"}}');
  });

  it("does not change the value it is given", () => {
    const input = { pan: "4242424242424242", cvv: "123", nested: ["4242424242424242"] };
    const copy = structuredClone(input);
    maskValue(input);
    expect(input).toEqual(copy);
  });
});
