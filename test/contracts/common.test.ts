import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/errors.js";
import { z } from "zod";
import { parseOrThrow } from "../../src/domain/validation.js";
import { limitSchema, oneOfQuery } from "../../src/contracts/common.js";

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
