import { describe, expect, it } from "vitest";
import { closest } from "../../src/domain/suggest.js";

describe("closest", () => {
  it.each([
    ["objectid", ["type", "objectId"], "objectId"],
    ["object_id", ["type", "objectId"], "objectId"],
    ["payment_intent.captureed", ["payment_intent.created", "payment_intent.captured"], "payment_intent.captured"],
    ["timeot", ["timeout"], "timeout"],
    ["stauts", ["status", "url"], "status"],
    ["endpoint", ["type", "objectId", "url", "status"], undefined],
    ["x", ["type"], undefined],
  ] as const)("%s among %j is %s", (input, candidates, expected) => {
    expect(closest(input, candidates)).toBe(expected);
  });
});
