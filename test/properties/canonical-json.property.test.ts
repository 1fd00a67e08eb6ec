import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint } from "../../src/shared/canonical-json.js";

/** Rebuilds every object of a JSON value with its keys in a shuffled order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, i) => shuffleKeys(item, seed + i));
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const order = keys.map((key, i) => ({ key, rank: Math.sin(seed * 997 + i * 131) })).sort((a, b) => a.rank - b.rank);
    return Object.fromEntries(order.map(({ key }, i) => [key, shuffleKeys((value as Record<string, unknown>)[key], seed + i + 1)]));
  }
  return value;
}

const json = fc.jsonValue();

describe("canonical JSON fingerprints (properties)", () => {
  it("ignore key order at every depth", () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        expect(fingerprint(shuffleKeys(value, seed))).toBe(fingerprint(value));
      }),
    );
  });

  it("parse back to the same value", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("change when any value changes", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json, { minKeys: 1 }), fc.jsonValue(), fc.nat(), (object, replacement, pick) => {
        const keys = Object.keys(object);
        const key = keys[pick % keys.length]!;
        fc.pre(canonicalJson(object[key]) !== canonicalJson(replacement));
        expect(fingerprint({ ...object, [key]: replacement })).not.toBe(fingerprint(object));
      }),
    );
  });
});
