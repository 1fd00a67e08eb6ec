import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { loopbackHostNames } from "../../src/domain/loopback.js";
import { hostCheck, targetAuthority } from "../../src/server/guards/host.js";

describe("targetAuthority", () => {
  it.each([
    ["/v1/payment_intents", undefined],
    ["*", undefined],
    [undefined, undefined],
    ["http://evil.example/v1", "evil.example"],
    ["http://127.0.0.1:4010/v1", "127.0.0.1:4010"],
    ["http://[::1]:4010/", "[::1]:4010"],
    ["http://127.0.0.1@evil.example/", "evil.example"],
    ["http://evil.example@127.0.0.1/", "127.0.0.1"],
    ["HTTP://LOCALHOST/", "localhost"],
    ["not a url", ""],
  ])("of %j is %j", (target, authority) => {
    expect(targetAuthority(target)).toBe(authority);
  });
});

describe("hostCheck on loopback", () => {
  const check = hostCheck(loopbackHostNames("127.0.0.1"));
  const verdict = (host: string | undefined, target?: string) => {
    try {
      check(host, target);
      return "served";
    } catch (error) {
      return error instanceof ApiError ? error.code : "thrown";
    }
  };

  it.each([
    ["127.0.0.1:4010", "/v1/events", "served"],
    ["localhost", "http://localhost:4010/v1/events", "served"],
    ["127.0.0.1", "http://[::1]/v1/events", "served"],
    ["evil.example", "/v1/events", "forbidden"],
    [undefined, "/v1/events", "forbidden"],
    ["127.0.0.1", "http://evil.example/v1/events", "forbidden"],
    ["127.0.0.1", "http://127.0.0.1.evil.example/v1/events", "forbidden"],
    ["127.0.0.1", "not a url", "forbidden"],
    ["evil.example", "http://127.0.0.1/v1/events", "forbidden"],
    ["127.0.0.2:4010", "/v1/events", "forbidden"],
  ])("Host %j with target %j is %s", (host, target, expected) => {
    expect(verdict(host, target)).toBe(expected);
  });

  it("serves the loopback address paysim listens on, besides the three documented names, and nothing else", () => {
    const onSecond = hostCheck(loopbackHostNames("127.0.0.2"));
    expect(() => onSecond("127.0.0.2:4010", "/v1/events")).not.toThrow();
    expect(() => onSecond("127.0.0.1:4010", "/v1/events")).not.toThrow();
    expect(() => onSecond("127.0.0.3:4010", "/v1/events")).toThrow(ApiError);
    expect(() => onSecond("evil.example", "/v1/events")).toThrow(ApiError);
  });

  it("is off when paysim listens elsewhere", () => {
    expect(() => hostCheck(loopbackHostNames("0.0.0.0"))("evil.example", "http://evil.example/")).not.toThrow();
  });
});
