import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/shared/sha256.js";

describe("sha256Hex", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  ])("hashes %j to the published SHA-256 digest", (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  it.each(["sk_test_clé", "idempotency-key-😀", "x".repeat(10_000)])("hashes %j as UTF-8, like createHash", (text) => {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});
