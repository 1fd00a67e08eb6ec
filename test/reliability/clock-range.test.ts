import { Database } from "../../src/store/sqlite-driver.js";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPaysim } from "../../src/index.js";
import { createPaysim } from "../../src/paysim.js";
import { UnusableDatabaseError } from "../../src/store/errors.js";
import { runCli } from "../helpers/cli.js";
import { useCreatedPaysim, usePaysim, useStartedPaysim, useTempDir } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { callApi, createIntent, freshKey } from "../helpers/paysim.js";

// Issue 17 item 3: `--time-scale 1e13` was accepted; a second later every clock read was a 500
// (RangeError: Invalid time value) and the database could not be opened again, even at scale 1.
// The child-process tests run the real binary (dist/): run `npm run build` first.

const END = "9999-12-31T23:59:59.999Z";
const ONE_YEAR = 31_536_000;

const folder = () => useTempDir("paysim-clock-range-");

/** A paysim database holding an intent, with its stored clock then set to `highWater` (as the old paysim left it after --time-scale 1e13). */
async function databaseWithClock(highWater: string): Promise<string> {
  const dbPath = join(folder(), "paysim.db");
  // Closed below, before the file is edited; with the test too, should making the intent fail.
  const paysim = await useCreatedPaysim({ db: dbPath });
  await createIntent({ api: (method, path, call) => callApi(paysim.url, paysim.secretKey, method, path, call) });
  await paysim.close();
  const raw = new Database(dbPath);
  raw.prepare("UPDATE meta SET value = ? WHERE key = 'clock_high_water_ms'").run(highWater);
  raw.close();
  return dbPath;
}

/** A real-time source the test moves by hand (paysim's own option for replaying time). */
function realTime(start = Date.now()) {
  let now = start;
  return { realNow: () => now, add: (ms: number) => void (now += ms) };
}

describe("the time scale is bounded so that dates stay valid", () => {
  it.each([
    ["--time-scale 1e13", ["--time-scale", "1e13"], {}],
    ["PAYSIM_TIME_SCALE=1000001", [], { PAYSIM_TIME_SCALE: "1000001" }],
    ["--time-scale 0", ["--time-scale", "0"], {}],
  ])("paysim start refuses %s with exit 1, saying the allowed range, and makes no database", async (_name, args, env) => {
    const cwd = folder();
    const db = join(cwd, "paysim.db");
    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", db, ...args], { cwd, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^paysim start: (--time-scale "\w+"|PAYSIM_TIME_SCALE="\w+" \(for --time-scale\)) is invalid: it must be a number greater than 0 and at most 1000000, e\.g\. 60\.\nsee paysim start --help\n$/,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("startPaysim refuses timeScale 1e13 with the allowed range, writing no file", async () => {
    const db = join(folder(), "paysim.db");
    await expect(startPaysim({ timeScale: 1e13, db })).rejects.toThrow("timeScale must be a number greater than 0 and at most 1000000; got 10000000000000.");
    expect(existsSync(db)).toBe(false);
  });

  it("at the fastest scale, a month of real time later the clock stands at the end of year 9999: reads answer 200, writes work, and the database opens again", async () => {
    const real = realTime();
    const dbPath = join(folder(), "paysim.db");
    const fast = await usePaysim({ db: dbPath, timeScale: 1_000_000, realNow: real.realNow });
    real.add(30 * 86_400_000);

    const clock = await fast.api("GET", "/v1/sandbox/clock");
    expect(clock.status).toBe(200);
    expect(clock.body.now).toBe(END);
    const intent = await createIntent(fast);
    expect(intent.created_at).toBe(END);
    await fast.close();

    const again = await usePaysim({ db: dbPath });
    const reopened = await again.api("GET", "/v1/sandbox/clock");
    expect(reopened.status).toBe(200);
    expect(reopened.body.now).toBe(END);
    expect((await again.api("GET", `/v1/payment_intents/${intent.id}`)).status).toBe(200);
  });
});

describe("repeated clock advances cannot push dates past the valid range", () => {
  it("advances a year at a time until the next would pass the end of year 9999: that one is a 400 naming the limit, and the clock stays", async () => {
    // Real time a year and a half before the end, as if thousands of one-year advances had been made.
    const paysim = await usePaysim({ realNow: realTime(Date.UTC(9998, 6, 1)).realNow });
    const advance = (seconds: number) => paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds } });

    expect((await advance(ONE_YEAR)).status).toBe(200);
    const before = (await paysim.api("GET", "/v1/sandbox/clock")).body;
    const refused = await advance(ONE_YEAR);
    expectApiError(refused, 400, "invalid_request", "seconds");
    expect(refused.body.error.message).toMatch(
      /^Advancing the clock by 31536000 seconds would take it past 9999-12-31T23:59:59\.999Z, the latest time paysim can show; it can move at most \d+ more seconds\.$/,
    );

    const after = (await paysim.api("GET", "/v1/sandbox/clock")).body;
    expect(after.offset_seconds).toBe(before.offset_seconds);
    expect(after.now).toBe(before.now);
    const room = Number(/at most (\d+) more/.exec(refused.body.error.message)![1]);
    const last = await advance(room);
    expect(last.status).toBe(200);
    expect(last.body.now).toBe("9999-12-31T23:59:59.000Z"); // whole seconds from a start on a whole second
    expect((await advance(1)).body.error.message).toContain("it cannot move any further.");
    expect((await callApi(paysim.url, paysim.secretKey, "POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: freshKey() })).status).toBe(201);
  });

  it("startPaysim's clock.advance rejects the same way, leaving the clock where it was", async () => {
    const dbPath = await databaseWithClock(String(Date.UTC(9999, 11, 31)));
    const paysim = await useStartedPaysim({ db: dbPath });
    const before = paysim.clock.now().getTime();
    expect(before).toBeGreaterThanOrEqual(Date.UTC(9999, 11, 31));
    await expect(paysim.clock.advance("2d")).rejects.toThrow(RangeError);
    await expect(paysim.clock.advance("2d")).rejects.toThrow(`past ${END}`);
    // Real time moves it on by a little; the refused two days are not added.
    expect(paysim.clock.now().getTime() - before).toBeLessThan(86_400_000);
  });
});

describe("a database whose stored clock is out of range", () => {
  const stateOf = (path: string) => ({ bytes: readFileSync(path).toString("base64"), mode: statSync(path).mode });

  it("is refused by paysim start with exit 1, a message naming the file and the fix, and not a byte or mode bit changed", async () => {
    const dbPath = await databaseWithClock("1.2e+22");
    const before = stateOf(dbPath);
    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", dbPath], { cwd: folder() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `paysim: The database ${dbPath} cannot be used: its stored clock (clock_high_water_ms) is 1.2e+22 ms, past ${END}, the latest time paysim can show. ` +
        `paysim has not changed it. Start with another --db, or delete ${dbPath} to start afresh.`,
    );
    expect(result.stderr).not.toMatch(/RangeError|Invalid time value|at .*\.js:\d+/);
    expect(stateOf(dbPath)).toEqual(before);
    expect(readdirSync(join(dbPath, "..")).sort()).toEqual(["paysim.db"]);
  });

  it.each(["10000000000000000", "NaN", "-1"])(
    "is refused by createPaysim with UnusableDatabaseError for clock_high_water_ms %s, unchanged",
    async (highWater) => {
      const dbPath = await databaseWithClock(highWater);
      const before = stateOf(dbPath);
      await expect(createPaysim({ port: 0, db: dbPath })).rejects.toThrow(UnusableDatabaseError);
      await expect(createPaysim({ port: 0, db: dbPath })).rejects.toThrow(`its stored clock (clock_high_water_ms) is`);
      expect(stateOf(dbPath)).toEqual(before);
    },
  );
});
