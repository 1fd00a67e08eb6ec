import { describe, expect, it } from "vitest";
import { formatAmount, isCurrency, MAX_AMOUNT, minorDigits } from "../../src/domain/money.js";

describe("minorDigits", () => {
  it.each([
    ["EUR", 2],
    ["USD", 2],
    ["JPY", 0],
    ["KWD", 3],
  ])("%s has %i minor-unit digits", (currency, expected) => {
    expect(minorDigits(currency)).toBe(expected);
  });
});

describe("formatAmount", () => {
  it.each([
    [1050, "EUR", "€10.50"],
    [1, "EUR", "€0.01"],
    [123456789, "EUR", "€1,234,567.89"],
    [1050, "JPY", "¥1,050"],
    [1050, "KWD", "KWD 1.050"],
    [1, "KWD", "KWD 0.001"],
    [MAX_AMOUNT, "EUR", "€9,999,999,999.99"],
  ])("formats %i %s as %s", (amount, currency, expected) => {
    expect(formatAmount(amount, currency).replace(/\s/g, " ")).toBe(expected);
  });

  it("follows the given locale", () => {
    expect(formatAmount(1050, "EUR", "de-DE").replace(/\s/g, " ")).toBe("10,50 €");
  });
});

describe("isCurrency", () => {
  it.each([
    ["EUR", true],
    ["USD", true],
    ["JPY", true],
    ["KWD", true],
    ["eur", false],
    ["Eur", false],
    ["XYZ", false],
    ["EURO", false],
    ["EU", false],
    ["", false],
    [" EUR", false],
  ])("%j → %s", (code, expected) => {
    expect(isCurrency(code)).toBe(expected);
  });
});
