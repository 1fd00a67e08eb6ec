import { describe, expect, it } from "vitest";
import { isLoopbackAddress, loopbackHostNames } from "../../src/domain/loopback.js";

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.0.0.2", true],
    ["127.255.255.254", true],
    ["localhost", true],
    ["LOCALHOST", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.10", false],
    ["128.0.0.1", false],
    ["127.0.0.1.evil.example", false],
  ])("%j is %j", (host, expected) => {
    expect(isLoopbackAddress(host)).toBe(expected);
  });
});

describe("loopbackHostNames", () => {
  it.each([
    ["127.0.0.1", ["localhost", "127.0.0.1", "[::1]"]],
    ["127.0.0.2", ["localhost", "127.0.0.1", "[::1]", "127.0.0.2"]],
    ["::1", ["localhost", "127.0.0.1", "[::1]"]],
    ["localhost", ["localhost", "127.0.0.1", "[::1]"]],
  ])("listening on %j serves %j", (listenHost, names) => {
    expect([...loopbackHostNames(listenHost)!].sort()).toEqual([...names].sort());
  });

  it.each(["0.0.0.0", "::", "192.168.1.10"])("listening on %j has no Host rule", (listenHost) => {
    expect(loopbackHostNames(listenHost)).toBeUndefined();
  });
});
