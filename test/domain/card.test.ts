import { describe, expect, it } from "vitest";
import { brandFromNumber, cardDigits, checkCardForm, cvcLength, isCvc, isExpired, isLuhnValid, parseExpiry } from "../../src/domain/card.js";
import { loadTestCards } from "../../src/fixture-data.js";

const TEST_CARDS = loadTestCards();
/** 15 June 2030, 12:00 UTC. */
const NOW = Date.UTC(2030, 5, 15, 12);

describe("isLuhnValid", () => {
  it.each([
    ["4242424242424242", true],
    ["5555555555554444", true],
    ["378282246310005", true],
    ["4000000000000002", true],
    ["6011111111111117", true],
    ["79927398713", true],
    ["4242424242424241", false],
    ["4242424242424243", false],
    ["1234567812345678", false],
    ["79927398710", false],
    ["", false],
    ["4242x42424242424", false],
  ])("%s is %s", (digits, valid) => {
    expect(isLuhnValid(digits)).toBe(valid);
  });
});

describe("brandFromNumber", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["4000056655665556", "visa"],
    ["5105105105105100", "mastercard"],
    ["5555555555554444", "mastercard"],
    ["2221000000000009", "mastercard"],
    ["2720990000000007", "mastercard"],
    ["2220990000000000", "unknown"],
    ["2721000000000000", "unknown"],
    ["5000000000000009", "unknown"],
    ["5600000000000000", "unknown"],
    ["340000000000009", "amex"],
    ["378282246310005", "amex"],
    ["350000000000000", "unknown"],
    ["6011111111111117", "discover"],
    ["6500000000000002", "discover"],
    ["6012000000000000", "unknown"],
    ["3530111333300000", "unknown"],
    ["0000000000000000", "unknown"],
  ])("%s is %s", (digits, brand) => {
    expect(brandFromNumber(digits)).toBe(brand);
  });
});

describe("cardDigits", () => {
  it.each([
    ["4242424242424242", "4242424242424242"],
    [" 4242 4242 4242 4242 ", "4242424242424242"],
    ["4242-4242-4242-4242", "4242424242424242"],
    ["4242.4242.4242.4242", undefined],
    ["4242 abcd 4242 4242", undefined],
    ["", undefined],
  ])("%j gives %j", (typed, digits) => {
    expect(cardDigits(typed)).toBe(digits);
  });
});

describe("parseExpiry", () => {
  it.each([
    ["12/34", { month: 12, year: 2034 }],
    ["04 / 31", { month: 4, year: 2031 }],
    ["4/31", { month: 4, year: 2031 }],
    ["0431", { month: 4, year: 2031 }],
    ["04-31", { month: 4, year: 2031 }],
    ["04/2031", { month: 4, year: 2031 }],
    [" 01/30 ", { month: 1, year: 2030 }],
    ["13/30", undefined],
    ["00/30", undefined],
    ["1/2/30", undefined],
    ["04/3", undefined],
    ["April 2031", undefined],
    ["", undefined],
  ])("%j gives %j", (typed, expiry) => {
    expect(parseExpiry(typed)).toEqual(expiry);
  });
});

describe("isExpired (valid through the last day of its month, by the given clock)", () => {
  it.each([
    [{ month: 6, year: 2030 }, false],
    [{ month: 7, year: 2030 }, false],
    [{ month: 5, year: 2030 }, true],
    [{ month: 12, year: 2029 }, true],
    [{ month: 1, year: 2031 }, false],
  ])("%j at 2030-06-15 is expired: %s", (expiry, expired) => {
    expect(isExpired(expiry, NOW)).toBe(expired);
  });

  it("a card expiring this month is still good on its last second", () => {
    expect(isExpired({ month: 6, year: 2030 }, Date.UTC(2030, 5, 30, 23, 59, 59))).toBe(false);
    expect(isExpired({ month: 6, year: 2030 }, Date.UTC(2030, 6, 1))).toBe(true);
  });
});

describe("isCvc", () => {
  it.each([
    ["123", true],
    ["1234", true],
    ["12", false],
    ["12345", false],
    ["12a", false],
    ["", false],
  ])("%j is %s", (typed, valid) => {
    expect(isCvc(typed)).toBe(valid);
  });
});

describe("cvcLength", () => {
  it.each([
    ["amex", 4],
    ["visa", 3],
    ["mastercard", 3],
    ["discover", 3],
    ["unknown", 3],
  ])("%s has %i digits", (brand, length) => {
    expect(cvcLength(brand)).toBe(length);
  });
});

describe("checkCardForm", () => {
  const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

  it.each([
    ["4242424242424242", "123", { last4: "4242", brand: "visa" }, null],
    ["5555 5555 5555 4444", "123", { last4: "4444", brand: "mastercard" }, null],
    ["3782 822463 10005", "1234", { last4: "0005", brand: "amex" }, null],
    ["3400 0000 0000 009", "1234", { last4: "0009", brand: "amex" }, null],
    ["4000000000000002", "123", { last4: "0002", brand: "visa" }, "card_declined"],
    ["4000000000009995", "123", { last4: "9995", brand: "visa" }, "insufficient_funds"],
    ["4000000000000069", "123", { last4: "0069", brand: "visa" }, "expired_card"],
    ["6011111111111117", "123", { last4: "1117", brand: "discover" }, null],
    ["2221000000000009", "123", { last4: "0009", brand: "mastercard" }, null],
    ["0000000000000000", "123", { last4: "0000", brand: "unknown" }, null],
  ])("a card %s with CVC %s is presented as %j with failure_reason %s", (number, cvc, card, failureReason) => {
    expect(checkCardForm({ ...good, number, cvc }, NOW, TEST_CARDS)).toEqual({ ok: true, presented: { card, failure_reason: failureReason } });
  });

  it.each([
    ["3782 822463 10005", "123", "An American Express card's security code is 4 digits."],
    ["3400 0000 0000 009", "123", "An American Express card's security code is 4 digits."],
    ["4242424242424242", "1234", "The security code is 3 digits."],
    ["5555 5555 5555 4444", "1234", "The security code is 3 digits."],
    ["6011111111111117", "1234", "The security code is 3 digits."],
    ["0000000000000000", "1234", "The security code is 3 digits."],
  ])("refuses the card %s with a CVC of the wrong length (%s)", (number, cvc, message) => {
    expect(checkCardForm({ ...good, number, cvc }, NOW, TEST_CARDS)).toEqual({ ok: false, errors: { cvc: message } });
  });

  it("judges the CVC's length only once the number is good, so the number is what the form names", () => {
    expect(checkCardForm({ ...good, number: "4242 4242 4242 4241", cvc: "1234" }, NOW, TEST_CARDS)).toEqual({
      ok: false,
      errors: { number: "Your card number is invalid." },
    });
  });

  it.each([
    [{ number: "" }, { number: "Enter your card number." }],
    [{ number: "4242 4242 4242 4241" }, { number: "Your card number is invalid." }],
    [{ number: "4242 4242 42" }, { number: "Your card number is incomplete." }],
    [{ number: "42424242424242424242" }, { number: "Your card number is invalid." }],
    [{ number: "4242-abcd" }, { number: "A card number has digits only." }],
    [{ expiry: "" }, { expiry: "Enter the card's expiry date." }],
    [{ expiry: "12/345" }, { expiry: "Enter the expiry date as MM/YY." }],
    [{ expiry: "13/34" }, { expiry: "Enter the expiry date as MM/YY." }],
    [{ expiry: "05/30" }, { expiry: "Your card has expired." }],
    [{ expiry: "01/99" }, { expiry: "Your card's expiry year is invalid." }],
    [{ cvc: "" }, { cvc: "Enter the card's security code (CVC)." }],
    [{ cvc: "12" }, { cvc: "The security code is 3 or 4 digits." }],
    [{ cvc: "12345" }, { cvc: "The security code is 3 or 4 digits." }],
    [
      { number: "", expiry: "", cvc: "" },
      { number: "Enter your card number.", expiry: "Enter the card's expiry date.", cvc: "Enter the card's security code (CVC)." },
    ],
  ])("refuses %j with %j", (change, errors) => {
    expect(checkCardForm({ ...good, ...change }, NOW, TEST_CARDS)).toEqual({ ok: false, errors });
  });

  it("never repeats the typed number in an error", () => {
    const result = checkCardForm({ number: "4242424242424241", expiry: "13/99", cvc: "98765" }, NOW, TEST_CARDS);
    expect(JSON.stringify(result)).not.toMatch(/4242|98765/);
  });
});
