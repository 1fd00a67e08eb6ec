import { describe, expect, it } from "vitest";
import { isSecretKey, isSigningSecret } from "../../src/domain/secret-keys.js";

// docs/api.md: the prefix, then 1–200 printable ASCII characters without spaces.
const suffixes: [name: string, suffix: string, valid: boolean][] = [
  ["one character (sk_test_x, whsec_x)", "x", true],
  ["the documented short examples", "acme", true],
  ["underscores and digits", "fw_0001", true],
  ["every printable ASCII character but space", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~09AZaz", true],
  ["200 characters", "a".repeat(200), true],
  ["201 characters", "a".repeat(201), false],
  ["nothing after the prefix", "", false],
  ["a space inside", "acme 0001", false],
  ["a trailing space", "acme ", false],
  ["a tab", "acme\t0001", false],
  ["a newline", "acme\n", false],
  ["a non-ASCII letter", "acmé", false],
  ["an emoji", "acme🙂", false],
  ["a DEL character", "acme\x7f", false],
];

describe("secret keys: sk_test_ then 1–200 printable ASCII characters without spaces", () => {
  it.each(suffixes)("%s", (_name, suffix, valid) => {
    expect(isSecretKey(`sk_test_${suffix}`)).toBe(valid);
  });

  it.each([
    ["sk_test_fw_0001", true],
    ["sk_test_x", true],
    ["sk_live_0123456789", false],
    ["SK_TEST_x", false],
    ["sk_testx", false],
    [" sk_test_x", false],
    ["whsec_acme", false],
    ["", false],
  ])("%j → %s", (value, valid) => {
    expect(isSecretKey(value)).toBe(valid);
  });
});

describe("signing secrets: whsec_ then 1–200 printable ASCII characters without spaces", () => {
  it.each(suffixes)("%s", (_name, suffix, valid) => {
    expect(isSigningSecret(`whsec_${suffix}`)).toBe(valid);
  });

  it.each([
    ["whsec_acme", true],
    ["whsec_x", true],
    ["whsec", false],
    ["WHSEC_acme", false],
    ["sk_test_acme", false],
    ["", false],
  ])("%j → %s", (value, valid) => {
    expect(isSigningSecret(value)).toBe(valid);
  });
});
