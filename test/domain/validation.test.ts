import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "../../src/domain/errors.js";
import { MAX_AMOUNT } from "../../src/domain/money.js";
import { amountSchema, currencySchema, descriptionSchema, limitSchema, oneOfQuery, parseOrThrow } from "../../src/domain/validation.js";

const body = z.strictObject({
  amount: amountSchema,
  currency: currencySchema.optional(),
  description: descriptionSchema.optional(),
  nested: z.strictObject({ inner: z.string().optional() }).optional(),
});

function refusal(schema: z.ZodType<unknown>, input: unknown): ApiError {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

describe("parseOrThrow with the payment fields", () => {
  it.each([
    ["amount zero", { amount: 0 }, "amount", /amount must be/],
    ["amount negative", { amount: -5 }, "amount", /amount must be/],
    ["amount a fraction", { amount: 10.5 }, "amount", /fractions are not allowed/],
    ["amount a string", { amount: "1000" }, "amount", /amount must be/],
    ["amount a boolean", { amount: true }, "amount", /amount must be/],
    ["amount null", { amount: null }, "amount", /amount must be/],
    ["amount over the maximum", { amount: MAX_AMOUNT + 1 }, "amount", /999999999999/],
    ["amount missing", {}, "amount", /amount is required/],
    ["currency lower case", { amount: 1, currency: "eur" }, "currency", /upper-case ISO 4217/],
    ["currency unknown", { amount: 1, currency: "XYZ" }, "currency", /ISO 4217/],
    ["currency a number", { amount: 1, currency: 978 }, "currency", /currency must be/],
    ["description too long", { amount: 1, description: "x".repeat(1001) }, "description", /at most 1000/],
    ["description not a string", { amount: 1, description: 42 }, "description", /must be a string/],
    ["an unknown field", { amount: 1, colour: "red" }, "colour", /Unknown field "colour"/],
    ["an unknown nested field", { amount: 1, nested: { outer: 1 } }, "nested.outer", /Unknown field "nested.outer"/],
  ])("refuses %s with invalid_request naming the field", (_name, input, param, message) => {
    const error = refusal(body, input);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it("reports an unknown field before a missing one (a typo explains the missing field)", () => {
    const error = refusal(body, { amout: 1000 });
    expect(error.param).toBe("amout");
  });

  it.each([
    [{ amount: 1 }],
    [{ amount: MAX_AMOUNT }],
    [{ amount: 1000, currency: "JPY", description: "x".repeat(1000) }],
    [{ amount: 1000, description: "" }],
  ])("accepts %j unchanged", (input) => {
    expect(parseOrThrow(body, input)).toEqual(input);
  });

  it("refuses a body that is not an object without naming a field", () => {
    const error = refusal(body, []);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBeUndefined();
  });
});

describe("limitSchema", () => {
  it.each([
    [undefined, 10],
    ["1", 1],
    ["10", 10],
    ["100", 100],
  ])("reads %j as %i", (raw, expected) => {
    expect(parseOrThrow(z.object({ limit: limitSchema }), { limit: raw })).toEqual({ limit: expected });
  });

  it.each(["0", "101", "abc", "1.5", "-1", "", "1e2", " 5", "1000"])("refuses %j naming limit", (raw) => {
    const error = refusal(z.object({ limit: limitSchema }), { limit: raw });
    expect(error.param).toBe("limit");
    expect(error.message).toBe("limit must be an integer from 1 to 100.");
  });
});

describe("oneOfQuery", () => {
  const schema = z.object({ state: oneOfQuery("state", ["created", "failed"] as const) });

  it("accepts a listed value or none", () => {
    expect(parseOrThrow(schema, { state: "failed" })).toEqual({ state: "failed" });
    expect(parseOrThrow(schema, {})).toEqual({ state: undefined });
  });

  it("refuses another value, listing the allowed ones", () => {
    const error = refusal(schema, { state: "paid" });
    expect(error.param).toBe("state");
    expect(error.message).toBe("state must be one of: created, failed.");
  });
});
