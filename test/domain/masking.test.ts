import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdsCardNumber, maskInput, maskRequestBody, maskText, maskTextKeeping, maskValue } from "../../src/domain/masking.js";
import { isSecretKey, isSigningSecret } from "../../src/domain/secret-keys.js";

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
    ["12 digits, then a gap of 4 spaces (table columns, not one run)", `${digits(12)}    1`],
    ["digit groups split by dots (decimals, versions and addresses use dots)", "4242.4242.4242.4242"],
    ["digit groups split by slashes (dates and paths)", "4242/4242/4242/4242"],
    ["a time joined to a date by a colon-free space (14 digits split by colons)", "2026-11-23 17:08:10"],
    ["ids made of letters and digits, side by side", "evt_0a1B2c3D4e5F6g7H8 pi_1a2b3c4d5e6f7g8h9"],
    ["a reference", "PAY-1234567890"],
    ["percentages", "50% 60%"],
    ["a percent-encoded path without 13 digits", "/v1/payment_intents/pi_%41%42"],
  ])("leaves %s untouched", (_name, input) => {
    expect(maskText(input)).toBe(input);
  });

  it("changes exactly what a regex over every ASCII digit run would change, on any mix of digits, separators and letters", () => {
    // A run: digits where up to 3 whitespace, hyphen or plus characters in a row may sit between two digits.
    // A run of digits alone glued to letters on both sides is part of a word (issue 32 item 7).
    const reference = (text: string) =>
      text.replace(/\d(?:[ \t\n+-]{0,3}\d)*/g, (run, at: number) => {
        const partOfWord = /^\d+$/.test(run) && /[a-z]/i.test(text[at - 1] ?? "") && /[a-z]/i.test(text[at + run.length] ?? "");
        return run.replace(/\D/g, "").length >= 13 && !partOfWord ? `<${run}>` : run;
      });
    fc.assert(
      fc.property(fc.array(fc.constantFrom("4", "2", "0", " ", "-", "a", ".", "  ", "   ", "    ", "\t", "+", "\n"), { maxLength: 60 }), (parts) => {
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

describe("maskText on digits inside ids and words (issue 32 item 7)", () => {
  const id24 = (prefix: string, tail: string) => `${prefix}_${tail}`;
  it.each([
    ["a paysim id whose 24 characters are all digits", id24("pi", "123456789012345678901234")],
    ["a paysim id holding 20 digits in a row", id24("pi", "Ab12345678901234567890Cd")],
    ["a paysim id ending in 22 digits, in an error message", `No such payment intent: "${id24("pi", "Ab1234567890123456789012")}".`],
    ["an ordered id (del_)", id24("del", "0WKq7s3b4242424242424242")],
    ["ids of every kind side by side", ["po", "evt", "req", "we", "co", "job", "flt"].map((p) => id24(p, "x".repeat(4) + "4".repeat(20))).join(" ")],
    ["an id in a path", `/v1/payment_intents/${id24("pi", "0".repeat(24))}/capture`],
    // A table's row: an id ending in digits, then the date of the next column; 13 digits together, and Luhn-valid.
    ["an id ending in digits, then a date, as `paysim events list` prints them", `${id24("pi", "aW4fQnF2bgHojfq4Tpb55192")}  2026-11-27T07:42:38.536Z`],
    ["a digit run glued to letters on both sides (a token)", "ab1234567890123cd"],
    ["a hex digest", "deadbeef4242424242424242cafe"],
    ["a token in a sentence", "token tok4000000000000002visa used"],
  ])("leaves %s untouched", (_name, input) => {
    expect(maskText(input)).toBe(input);
  });

  it.each([
    ["a PAN glued to a word on its left only", "card4242424242424242", "card************4242"],
    ["a PAN glued to a word on its right only", "4242424242424242visa", "************4242visa"],
    ["a PAN between words and a space", "pay4242424242424242 now", "pay************4242 now"],
    ["a spaced PAN glued to letters on both sides", "x4242 4242 4242 4242y", "x**** **** **** 4242y"],
    ["a PAN after a colon", "card:4242424242424242,", "card:************4242,"],
    ["a PAN in parentheses", "(4242424242424242)", "(************4242)"],
    ["a PAN between underscores", "x_4242424242424242_y", "x_************4242_y"],
    ["a PAN after an id prefix but too short to be an id", "pi_4242424242424242", "pi_************4242"],
    ["25 digits after an id prefix (no id)", `pi_${"4".repeat(25)}`, `pi_${"*".repeat(21)}4444`],
    ["an id glued to more letters (no id)", `xpi_${"4".repeat(24)}`, `xpi_${"*".repeat(20)}4444`],
    ["a PAN next to an id, apart from it", `pi_${"a".repeat(24)} 4242424242424242`, `pi_${"a".repeat(24)} ************4242`],
    ["a full-width PAN glued to a letter on one side", "x４２４２４２４２４２４２４２４２", "x************４２４２"],
  ])("masks %s", (_name, input, expected) => {
    expect(maskText(input)).toBe(expected);
  });
});

describe("maskText on card numbers written in other forms (issue 17 item 7)", () => {
  it.each([
    ["full-width digits", "４２４２４２４２４２４２４２４２", "************４２４２"],
    ["Arabic-Indic digits", "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢", "************٤٢٤٢"],
    ["Devanagari digits", "४२४२ ४२४२ ४२४२ ४२४२", "**** **** **** ४२४२"],
    ["mathematical bold digits (outside the BMP)", "𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐", "************𝟒𝟐𝟒𝟐"],
    ["mixed scripts", "4٢４२ 4242 4242 4242", "**** **** **** 4242"],
    ["zero-width spaces", "4242\u200b4242\u200b4242\u200b4242", "****\u200b****\u200b****\u200b4242"],
    ["word joiners and BOMs", "4242\u20604242\ufeff4242\u200d4242", "****\u2060****\ufeff****\u200d4242"],
    ["soft hyphens", "4242\u00ad4242\u00ad4242\u00ad4242", "****\u00ad****\u00ad****\u00ad4242"],
    ["no-break spaces", "4242\u00a04242\u00a04242\u00a04242", "****\u00a0****\u00a0****\u00a04242"],
    ["narrow no-break and ideographic spaces", "4242\u202f4242\u30004242 4242", "****\u202f****\u3000**** 4242"],
    ["tabs", "4242\t4242\t4242\t4242", "****\t****\t****\t4242"],
    ["double spaces", "4242  4242  4242  4242", "****  ****  ****  4242"],
    ["spaced hyphens", "4242 - 4242 - 4242 - 4242", "**** - **** - **** - 4242"],
    ["en dashes and minus signs", "4242\u20134242\u22124242\u20144242", "****\u2013****\u2212****\u20144242"],
    ["line breaks", "4242\n4242\r\n4242\n4242", "****\n****\r\n****\n4242"],
    ["plus signs (spaces in a query string)", "?card=4242+4242+4242+4242", "?card=****+****+****+4242"],
    ["percent-encoded spaces", "/hook/4242%204242%204242%204242", "/hook/****%20****%20****%204242"],
    ["percent-encoded digits", "%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32", "************%34%32%34%32"],
    ["percent-encoded full-width digits", "%EF%BC%94".repeat(16), `${"*".repeat(12)}${"%EF%BC%94".repeat(4)}`],
    ["percent-encoded zero-width spaces", "4242%E2%80%8B4242%E2%80%8B4242%E2%80%8B4242", "****%E2%80%8B****%E2%80%8B****%E2%80%8B4242"],
    ["double percent-encoding", "4242%25204242%25204242%25204242", "****%2520****%2520****%25204242"],
    [
      "keycap digits (variation selector and enclosing keycap marks)",
      "4\ufe0f\u20e32\ufe0f\u20e3".repeat(8),
      `${"*\ufe0f\u20e3".repeat(12)}${"4\ufe0f\u20e32\ufe0f\u20e3".repeat(2)}`,
    ],
    ["superscript digits", "⁴²⁴²⁴²⁴²⁴²⁴²⁴²⁴²", "************⁴²⁴²"],
  ])("masks a PAN written with %s", (_name, input, expected) => {
    expect(maskText(input)).toBe(expected);
  });

  it("masks a PAN of every length from 13 to 19 digits in full-width digits inside a sentence", () => {
    for (let n = 13; n <= 19; n++) {
      const pan = digits(n).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
      expect(maskText(`paid with ${pan} today`)).toBe(`paid with ${"*".repeat(n - 4)}${pan.slice(-4)} today`);
    }
  });
});

describe("holdsCardNumber", () => {
  it.each([
    ["a PAN in clear", "4242424242424242", true],
    ["a percent-encoded PAN in a URL", "http://127.0.0.1:3000/hook/4242%204242%204242%204242", true],
    ["a PAN in a query string", "http://x/hook?card=4242+4242+4242+4242", true],
    ["a PAN already masked on entry", "http://x/hook/****%20****%20****%204242", true],
    ["a masked PAN with no separators", "************4242", true],
    ["a masked PAN in full-width digits", "**** **** **** ４２４２", true],
    ["a plain webhook URL", "http://localhost:3000/webhooks", false],
    ["a URL with a port and a short id", "http://127.0.0.1:65535/hooks/12345?attempt=1", false],
    ["a destination token", "tok_card_visa", false],
    ["stars alone", "*************", false],
    ["four stars", "****", false],
  ])("%s → %s", (_name, text, expected) => {
    expect(holdsCardNumber(text)).toBe(expected);
  });
});

describe("maskValue", () => {
  it.each([
    ["full-width digits", "４２４２ ４２４２ ４２４２ ４２４２", "**** **** **** ４２４２"],
    ["zero-width spaces", "4242\u200b4242\u200b4242\u200b4242", "****\u200b****\u200b****\u200b4242"],
    ["a short Arabic-Indic number", "٤٢٤٢٤٢٤٢", "****٤٢٤٢"],
    ["percent-encoded digits", "%34%32%34%32%34%32", "**%34%32%34%32"],
  ])("masks a card.number written with %s", (_name, number, expected) => {
    expect(maskValue({ card: { number } })).toEqual({ card: { number: expected } });
  });

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

describe("maskInput: what comes in is masked in its strings only (issue 28 item 2)", () => {
  it.each([
    ["a probability that prints with 17 digits", { probability: 0.30000000000000004 }, { probability: 0.30000000000000004 }],
    ["a 13-digit seed", { seed: 1_000_000_000_000 }, { seed: 1_000_000_000_000 }],
    ["a PAN-sized number outside a card field", { amount: 4242424242424242 }, { amount: 4242424242424242 }],
    [
      "chaos shares and seed",
      { chaos: { duplicate: 0.1234567890123456, seed: 12345678901234 } },
      { chaos: { duplicate: 0.1234567890123456, seed: 12345678901234 } },
    ],
    ["a fractional amount", { amount: 1200.0000000000002 }, { amount: 1200.0000000000002 }],
    ["a PAN in a string, exactly as maskText masks it", { path: "/v1/payment_intents/4242424242424242" }, { path: "/v1/payment_intents/************4242" }],
    ["a numeric card_number (a card number whatever its type)", { card_number: 4242424242424242 }, { card_number: "************4242" }],
    ["a numeric card.number", { card: { number: 4000000000000002 } }, { card: { number: "************0002" } }],
    ["a cvv", { amount: 1, cvv: 123 }, { amount: 1 }],
  ])("%s", (_name, input, expected) => {
    expect(maskInput(input)).toEqual(expected);
  });

  it("masks every string as maskValue does", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(maskInput({ a: [text] })).toEqual(maskValue({ a: [text] }));
      }),
    );
  });
});

describe("credentials a user chose are no card data", () => {
  const key = "sk_test_ci_1732212345678901234";
  const secret = "whsec_ci_7302212345678901234";
  const credentials = { secret_key: isSecretKey, webhook_secret: isSigningSecret };

  it("keeps a body's credential fields exactly as sent when they have their format, and masks the rest of the body", () => {
    const body = { name: "Shop 4242424242424242", secret_key: key, webhook_secret: secret, metadata: { secret_key: key } };
    expect(maskRequestBody(body, credentials)).toEqual({
      name: "Shop ************4242",
      secret_key: key,
      webhook_secret: secret,
      metadata: { secret_key: "sk_test_ci_***************1234" },
    });
  });

  it("masks a credential field that does not have its format, as any text, and every field of a body that declares none", () => {
    expect(maskRequestBody({ secret_key: "4242424242424242", webhook_secret: key }, credentials)).toEqual({
      secret_key: "************4242",
      webhook_secret: "sk_test_ci_***************1234",
    });
    expect(maskRequestBody({ secret_key: key })).toEqual({ secret_key: "sk_test_ci_***************1234" });
  });

  it("keeps in a line only the credentials named, and only those of a credential's format", () => {
    const line = `KEY=${key} SECRET=${secret} card 4242 4242 4242 4242 other sk_test_9732212345678901234`;
    expect(maskTextKeeping(line, [key, secret, "4242 4242 4242 4242"])).toBe(
      `KEY=${key} SECRET=${secret} card **** **** **** 4242 other sk_test_***************1234`,
    );
    expect(maskTextKeeping(line, [])).toBe(maskText(line));
  });
});
