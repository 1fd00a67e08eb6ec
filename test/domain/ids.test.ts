import { describe, expect, it } from "vitest";
import { createIds, type IdPrefix, type Ids } from "../../src/domain/ids.js";
import { seededSource } from "../helpers/seeded-random.js";

/** The ids of one instance on the cryptographic source, as paysim makes them. */
const { newId, newOrderedId, newReference, newSecret, randomString } = createIds();

const PREFIXES: IdPrefix[] = ["pi", "po", "evt", "req", "we", "co", "job", "del", "flt", "ins"];

describe("newId", () => {
  it.each(PREFIXES)("gives %s_ followed by 24 base62 characters", (prefix) => {
    expect(newId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`));
  });

  it("never repeats across many draws", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId("pi")));
    expect(ids.size).toBe(2000);
  });

  it("draws from the whole base62 alphabet", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => newId("evt").slice(4)).join(""));
    expect(seen.size).toBe(62);
  });
});

describe("newOrderedId", () => {
  const T = Date.parse("2030-01-01T00:00:00.000Z");

  it("has the shape of every id: the prefix, then 24 base62 characters", () => {
    expect(newOrderedId("del", T)).toMatch(/^del_[0-9A-Za-z]{24}$/);
    expect(newOrderedId("del", 0)).toMatch(/^del_0{8}[0-9A-Za-z]{16}$/);
  });

  it("sorts by time, as SQLite compares text: a later millisecond always comes after", () => {
    const times = [0, 1, 61, 62, T - 1, T, T + 1, T + 86_400_000, 62 ** 8 - 1];
    const ids = times.map((t) => newOrderedId("del", t));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  });

  it("never repeats within one millisecond", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newOrderedId("del", T)));
    expect(ids.size).toBe(2000);
  });
});

describe("newReference", () => {
  it.each([
    ["PAY", /^PAY-[0-9A-Z]{10}$/],
    ["POUT", /^POUT-[0-9A-Z]{10}$/],
  ] as const)("gives %s- followed by 10 upper-case letters or digits", (prefix, shape) => {
    for (let i = 0; i < 50; i++) expect(newReference(prefix, Date.now())).toMatch(shape);
  });

  it("sorts by the second it was made in, as SQLite compares text: its index grows at one edge", () => {
    const seconds = [
      Date.parse("2020-01-01T00:00:00Z"),
      Date.parse("2026-11-21T10:00:00Z"),
      Date.parse("2026-11-21T10:00:01Z"),
      Date.parse("2088-06-01T00:00:00Z"),
    ];
    const references = seconds.map((t) => newReference("PAY", t));
    expect([...references].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(references);
    expect(newReference("PAY", Date.parse("2020-01-01T00:00:00Z"))).toMatch(/^PAY-000000[0-9A-Z]{4}$/);
  });

  it("differs within one second (4 random characters)", () => {
    const t = Date.parse("2026-11-21T10:00:00.500Z");
    const references = new Set(Array.from({ length: 200 }, () => newReference("POUT", t)));
    expect(references.size).toBeGreaterThan(190);
  });
});

describe("newSecret", () => {
  it.each([
    ["sk_test_", /^sk_test_[0-9A-Za-z]{32}$/],
    ["whsec_", /^whsec_[0-9A-Za-z]{32}$/],
  ] as const)("gives %s followed by 32 base62 characters", (prefix, shape) => {
    expect(newSecret(prefix)).toMatch(shape);
    expect(newSecret(prefix)).not.toBe(newSecret(prefix));
  });
});

describe("randomString", () => {
  it.each([0, 1, 7, 24, 300])("gives exactly %i characters", (length) => {
    expect(randomString("ab", length)).toHaveLength(length);
  });

  it("uses only the given alphabet", () => {
    expect(randomString("xyz", 500)).toMatch(/^[xyz]{500}$/);
  });
});

describe("createIds", () => {
  const T = Date.parse("2030-01-01T00:00:00.000Z");
  /** Enough draws to take the pool past its first refill. */
  const draws = (ids: Ids) => [
    ...Array.from({ length: 400 }, () => ids.newId("pi")),
    ids.newOrderedId("del", T),
    ids.newReference("PAY", T),
    ids.newSecret("whsec_"),
    ids.randomString("ab", 10),
  ];

  it("replays every id from a replayable source, pool refills included", () => {
    expect(draws(createIds(seededSource(7)))).toEqual(draws(createIds(seededSource(7))));
  });

  it("draws other ids from another source, and each instance from its own pool", () => {
    const first = createIds(seededSource(7));
    const other = createIds(seededSource(8));
    other.newId("pi"); // draws from its own pool only
    newId("pi"); // and the cryptographic instance from its own
    const replayed = draws(first);
    expect(replayed).toEqual(draws(createIds(seededSource(7))));
    expect(draws(createIds(seededSource(8)))).not.toEqual(replayed);
  });

  it("gives the shapes of the process's ids", () => {
    const [id, ...rest] = draws(createIds(seededSource(1))).slice(399);
    expect(id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
    expect(rest[0]).toMatch(/^del_[0-9A-Za-z]{24}$/);
    expect(rest[1]).toMatch(/^PAY-[0-9A-Z]{10}$/);
    expect(rest[2]).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(rest[3]).toMatch(/^[ab]{10}$/);
  });
});
