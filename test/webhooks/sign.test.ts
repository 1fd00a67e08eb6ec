import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signatureHeader, verifySignature, wallClockSeconds } from "../../src/webhooks/sign.js";

const SECRET = "whsec_test_0123456789abcdef";
const BODY = '{"id":"evt_000000000000000000000001","object":"event","type":"payment_intent.created","data":{"description":"café ☕"}}';
const NOW = 1_900_000_000;

/** The seed's scheme, computed here with node:crypto: HMAC-SHA256 keyed with the whole secret's UTF-8 bytes over "<t>.<raw body>". */
function v1(t: number | string, body: string | Buffer = BODY, secret = SECRET): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.`).update(body).digest("hex");
}

const header = (t: number, body: string | Buffer = BODY, secret = SECRET) => `t=${t},v1=${v1(t, body, secret)}`;

describe("signatureHeader", () => {
  it("writes t=<t>,v1=<hex HMAC-SHA256 of '<t>.<body>'> keyed with the whole secret, whsec_ included", () => {
    expect(signatureHeader(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${v1(NOW)}`);
    // Not keyed with the part after the prefix.
    expect(signatureHeader(SECRET, BODY, NOW)).not.toBe(`t=${NOW},v1=${v1(NOW, BODY, SECRET.slice("whsec_".length))}`);
  });

  it("signs the body's bytes: a string and its UTF-8 Buffer give the same signature", () => {
    expect(signatureHeader(SECRET, Buffer.from(BODY, "utf8"), NOW)).toBe(signatureHeader(SECRET, BODY, NOW));
  });
});

describe("verifySignature", () => {
  const at = { now: NOW };

  it.each<[string, string | Uint8Array]>([
    ["a string", BODY],
    ["a Buffer", Buffer.from(BODY, "utf8")],
    ["a plain Uint8Array", new Uint8Array(Buffer.from(BODY, "utf8"))],
  ])("accepts a valid signature of the raw body given as %s", (_, body) => {
    expect(verifySignature(body, header(NOW), SECRET, at)).toBe(true);
  });

  it("accepts a signature made just now, checked against the real clock by default", () => {
    const t = wallClockSeconds();
    expect(verifySignature(BODY, header(t), SECRET)).toBe(true);
  });

  it.each<[string, string | Uint8Array]>([
    ["one character changed", BODY.replace("created", "captured")],
    ["re-serialised JSON (spaces)", JSON.stringify(JSON.parse(BODY), null, 1)],
    ["a trailing newline", `${BODY}\n`],
    ["an empty body", ""],
    ["one byte of the Buffer flipped", Buffer.from(BODY.replace("{", "["), "utf8")],
  ])("refuses a tampered body: %s", (_, body) => {
    expect(verifySignature(body, header(NOW), SECRET, at)).toBe(false);
  });

  it.each([
    ["another secret", "whsec_someone_else_000"],
    ["the secret without its whsec_ prefix", SECRET.slice("whsec_".length)],
    ["the secret with different case", SECRET.toUpperCase()],
    ["an empty secret", ""],
  ])("refuses when checked with %s", (_, secret) => {
    expect(verifySignature(BODY, header(NOW), secret, at)).toBe(false);
  });

  it.each([
    ["300 s old (the default tolerance)", NOW - 300, true],
    ["301 s old", NOW - 301, false],
    ["300 s in the future", NOW + 300, true],
    ["301 s in the future", NOW + 301, false],
    ["a day old", NOW - 86_400, false],
    ["a day in the future", NOW + 86_400, false],
    ["t = 0", 0, false],
  ])("with the default tolerance, a timestamp %s is %s", (_, t, valid) => {
    expect(verifySignature(BODY, header(t), SECRET, at)).toBe(valid);
  });

  it.each([
    [10, NOW - 10, true],
    [10, NOW - 11, false],
    [10, NOW + 11, false],
    [0, NOW, true],
    [0, NOW - 1, false],
    [3600, NOW - 3600, true],
    [3600, NOW + 3000, true],
    [3600, NOW - 3601, false],
  ])("with toleranceSeconds %i, t=%i is %s", (toleranceSeconds, t, valid) => {
    expect(verifySignature(BODY, header(t), SECRET, { toleranceSeconds, now: NOW })).toBe(valid);
  });

  it.each([
    ["a NaN tolerance", { toleranceSeconds: Number.NaN, now: NOW }],
    ["a NaN now", { toleranceSeconds: 300, now: Number.NaN }],
  ])("fails closed on %s (e.g. Number() of a missing setting) instead of accepting any age", (_, options) => {
    expect(verifySignature(BODY, header(NOW - 86_400 * 365), SECRET, options)).toBe(false);
    expect(verifySignature(BODY, header(NOW), SECRET, options)).toBe(false);
  });

  it("uses the tolerance against the real clock when no now is given", () => {
    const old = wallClockSeconds() - 3600;
    expect(verifySignature(BODY, header(old), SECRET)).toBe(false);
    expect(verifySignature(BODY, header(old), SECRET, { toleranceSeconds: 7200 })).toBe(true);
  });

  const good = v1(NOW);
  it.each([
    ["empty", ""],
    ["only a t", `t=${NOW}`],
    ["no v1 (another scheme)", `t=${NOW},v0=${good}`],
    ["no t", `v1=${good}`],
    ["an empty t", `t=,v1=${good}`],
    ["a non-numeric t", `t=soon,v1=${good}`],
    ["a negative t", `t=-${NOW},v1=${good}`],
    ["a fractional t", `t=${NOW}.5,v1=${good}`],
    ["an empty v1", `t=${NOW},v1=`],
    ["a non-hex v1 of the right length", `t=${NOW},v1=${"z".repeat(64)}`],
    ["a v1 one hex digit short", `t=${NOW},v1=${good.slice(0, 63)}`],
    ["a v1 one hex digit too long", `t=${NOW},v1=${good}0`],
    ["a v1 half the length", `t=${NOW},v1=${good.slice(0, 32)}`],
    ["a v1 in base64", `t=${NOW},v1=${Buffer.from(good, "hex").toString("base64")}`],
    ["no separators", `t${NOW}v1${good}`],
    ["semicolons instead of commas", `t=${NOW};v1=${good}`],
    ["only commas", ",,,"],
    ["garbage", "not a signature"],
  ])("refuses a malformed header (%s) without throwing", (_, value) => {
    expect(() => verifySignature(BODY, value, SECRET, at)).not.toThrow();
    expect(verifySignature(BODY, value, SECRET, at)).toBe(false);
  });

  it("accepts a header with several v1 values when one of them is right, in any position", () => {
    const wrong = v1(NOW, BODY, "whsec_old_secret_0000");
    expect(verifySignature(BODY, `t=${NOW},v1=${wrong},v1=${good}`, SECRET, at)).toBe(true);
    expect(verifySignature(BODY, `t=${NOW},v1=${good},v1=${wrong}`, SECRET, at)).toBe(true);
    expect(verifySignature(BODY, `t=${NOW},v1=${"z".repeat(64)},v1=${good}`, SECRET, at)).toBe(true);
  });

  it("refuses a header with several v1 values when none is right", () => {
    const wrong = v1(NOW, BODY, "whsec_old_secret_0000");
    expect(verifySignature(BODY, `t=${NOW},v1=${wrong},v1=${v1(NOW + 1)}`, SECRET, at)).toBe(false);
  });

  it("refuses a signature made for another t than the header's", () => {
    expect(verifySignature(BODY, `t=${NOW},v1=${v1(NOW - 1)}`, SECRET, at)).toBe(false);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a number", 1234],
    ["an object", { t: NOW, v1: good }],
    ["an array of headers", [header(NOW)]],
  ])("answers false, never throws, for a header that is %s", (_, value) => {
    const call = () => verifySignature(BODY, value as string, SECRET, at);
    expect(call).not.toThrow();
    expect(call()).toBe(false);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a parsed JSON object", JSON.parse(BODY)],
  ])("answers false, never throws, for a raw body that is %s", (_, body) => {
    const call = () => verifySignature(body as string, header(NOW), SECRET, at);
    expect(call).not.toThrow();
    expect(call()).toBe(false);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a Buffer", Buffer.from(SECRET)],
  ])("answers false, never throws, for a secret that is %s", (_, secret) => {
    const call = () => verifySignature(BODY, header(NOW), secret as string, at);
    expect(call).not.toThrow();
    expect(call()).toBe(false);
  });
});
