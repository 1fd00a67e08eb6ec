import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/errors.js";
import { z } from "zod";
import { ApiError } from "../../src/domain/errors.js";
import { MAX_AMOUNT } from "../../src/domain/money.js";
import {
  amountSchema,
  currencySchema,
  descriptionSchema,
  findIllFormedText,
  freeFormObject,
  jsonTypeOf,
  need,
  needOneOf,
  parseOrThrow,
  protoKeyPath,
  refuseIllFormedText,
} from "../../src/domain/validation.js";

const body = z.strictObject({
  amount: amountSchema,
  currency: currencySchema.optional(),
  description: descriptionSchema.optional(),
  nested: z.strictObject({ inner: z.string().optional() }).optional(),
});

describe("parseOrThrow with the payment fields", () => {
  it.each([
    ["amount zero", { amount: 0 }, "amount", /amount must be/],
    ["amount negative", { amount: -5 }, "amount", /amount must be/],
    ["amount a fraction", { amount: 10.5 }, "amount", /fractions are not allowed/],
    ["amount a string", { amount: "1000" }, "amount", /amount must be .*\(got a string\)\.$/],
    ["amount a boolean", { amount: true }, "amount", /amount must be .*\(got a boolean\)\.$/],
    ["amount null", { amount: null }, "amount", /amount must be .*\(got null\)\.$/],
    ["amount over the maximum", { amount: MAX_AMOUNT + 1 }, "amount", /999999999999/],
    ["amount missing", {}, "amount", /amount is required/],
    ["currency lower case", { amount: 1, currency: "eur" }, "currency", /upper-case ISO 4217/],
    ["currency unknown", { amount: 1, currency: "XYZ" }, "currency", /ISO 4217/],
    ["currency a number", { amount: 1, currency: 978 }, "currency", /currency must be .*\(got a number\)\.$/],
    ["description too long", { amount: 1, description: "x".repeat(1001) }, "description", /at most 1000/],
    ["description not a string", { amount: 1, description: 42 }, "description", /^description must be a string \(got a number\)\.$/],
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

  it.each([[{ amount: 1 }], [{ amount: MAX_AMOUNT }], [{ amount: 1000, currency: "JPY", description: "x".repeat(1000) }], [{ amount: 1000, description: "" }]])(
    "accepts %j unchanged",
    (input) => {
      expect(parseOrThrow(body, input)).toEqual(input);
    },
  );

  it("refuses a body that is not an object without naming a field", () => {
    const error = refusal(body, []);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBeUndefined();
  });
});

describe("need and needOneOf: a value of the wrong JSON type is named as such, never as missing", () => {
  it.each([
    [undefined, "seconds is required: an integer."],
    ["60", "seconds must be an integer (got a string)."],
    [60.5, "seconds must be an integer (got a number)."],
    [true, "seconds must be an integer (got a boolean)."],
    [null, "seconds must be an integer (got null)."],
    [[60], "seconds must be an integer (got an array)."],
    [{ s: 60 }, "seconds must be an integer (got an object)."],
  ])("need with input %j", (input, message) => {
    expect(need("seconds", "an integer")({ input })).toBe(message);
  });

  it.each([
    [undefined, "to is required: one of paid, failed."],
    ["nope", "to must be one of paid, failed."],
    [5, "to must be one of paid, failed (got a number)."],
    [["paid"], "to must be one of paid, failed (got an array)."],
  ])("needOneOf with input %j", (input, message) => {
    expect(needOneOf("to", ["paid", "failed"])({ input })).toBe(message);
  });

  it.each([
    ["x", "a string"],
    [0, "a number"],
    [false, "a boolean"],
    [null, "null"],
    [[], "an array"],
    [{}, "an object"],
    [undefined, "nothing"],
  ])("jsonTypeOf(%j) is %s", (value, name) => {
    expect(jsonTypeOf(value)).toBe(name);
  });
});

describe("protoKeyPath and freeFormObject", () => {
  it.each([
    ['{"a":1}', undefined],
    ['{"__proto__":{}}', ["__proto__"]],
    ['{"a":{"b":[1,{"__proto__":null}]}}', ["a", "b", 1, "__proto__"]],
    ['{"constructor":{"prototype":{}}}', undefined],
    ['[{"x":"__proto__"}]', undefined],
  ])("in %s: %j", (json, path) => {
    expect(protoKeyPath(JSON.parse(json))).toEqual(path);
  });

  const data = z.strictObject({ data: freeFormObject(z.looseObject({ id: z.string() })) });

  it("refuses __proto__ at any depth of a free-form object, naming its path, where the loose object alone would drop it", () => {
    for (const [json, param] of [
      ['{"data":{"id":"x","__proto__":{"id":"y"}}}', "data.__proto__"],
      ['{"data":{"id":"x","deep":[{"__proto__":{}}]}}', "data.deep.0.__proto__"],
    ] as const) {
      const error = refusal(data, JSON.parse(json));
      expect(error.param).toBe(param);
      expect(error.message).toMatch(/"__proto__" is not accepted as a field name/);
    }
  });

  it("keeps every other field of a free-form object, constructor and prototype included", () => {
    const input = JSON.parse('{"data":{"id":"x","constructor":"c","prototype":{"a":1}}}');
    expect(parseOrThrow(data, input)).toEqual(input);
  });

  it("still checks the object's own fields after the __proto__ check", () => {
    expect(refusal(data, { data: { id: 5 } }).param).toBe("data.id");
    expect(refusal(data, { data: "x" }).param).toBe("data");
  });
});

describe("findIllFormedText and refuseIllFormedText", () => {
  it.each([
    ['{"a":"plain","b":["\\ud83d\\ude00"]}', undefined],
    ['{"a":"x\\ud800y"}', { path: ["a"], inKey: false }],
    ['{"a":"\\udc00"}', { path: ["a"], inKey: false }],
    ['{"a":"\\ude00\\ud83d"}', { path: ["a"], inKey: false }],
    ['{"a":{"b":[1,"ok","\\udbff"]}}', { path: ["a", "b", 2], inKey: false }],
    ['{"a":{"k\\ud800":1}}', { path: ["a", "k\ud800"], inKey: true }],
  ])("in %s: %j", (json, spot) => {
    expect(findIllFormedText(JSON.parse(json))).toEqual(spot);
  });

  it("refuses with the path as param, unpaired surrogates shown as U+FFFD", () => {
    const refused = (json: string) => {
      try {
        refuseIllFormedText(JSON.parse(json));
      } catch (error) {
        if (error instanceof ApiError) return error;
      }
      throw new Error(`expected ${json} to be refused`);
    };
    const value = refused('{"note":{"lines":["x\\ud800"]}}');
    expect(value).toMatchObject({ code: "invalid_request", param: "note.lines.0" });
    expect(value.message).toMatch(/^note\.lines\.0 holds an unpaired surrogate/);
    const key = refused('{"note":{"a.b\\ud800":1}}');
    expect(key.param).toBe("note.a.b\uFFFD");
    expect(key.message).toMatch(/^The field name "a\.b\uFFFD" holds an unpaired surrogate/);
    expect(() => refuseIllFormedText({ ok: "\ud83d\ude00" })).not.toThrow();
  });
});
