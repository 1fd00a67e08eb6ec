import { describe, expect, it } from "vitest";
import { shellQuoted } from "../../src/cli/commands/env.js";
import { writable } from "../../src/cli/output.js";

describe("a printed line that hands credentials back", () => {
  const key = `sk_test_it's_"ci"_1732212345678901234`;

  it("keeps each credential exactly, as it is, in a JSON string and in a single-quoted shell word", () => {
    for (const line of [`PAYSIM_SECRET_KEY=${key}`, JSON.stringify({ PAYSIM_SECRET_KEY: key }), `export PAYSIM_SECRET_KEY=${shellQuoted(key)}`])
      expect(writable(line, undefined, [key])).toBe(line);
  });

  it("masks a card number beside it, and what is not a credential by its format (a space in it)", () => {
    const notAKey = "sk_test_ci 1732212345678901234";
    expect(writable(`${key} 4242424242424242 ${notAKey}`, undefined, [key, notAKey])).toBe(`${key} ************4242 sk_test_ci ***************1234`);
    expect(writable(`KEY=${key}`)).toBe(`KEY=sk_test_it's_"ci"_***************1234`);
  });
});
