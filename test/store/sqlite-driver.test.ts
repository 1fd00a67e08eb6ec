import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { Database } from "../../src/store/sqlite-driver.js";

const DRIVER = pathToFileURL(fileURLToPath(new URL("../../dist/store/sqlite-driver.js", import.meta.url))).href;
const CHURN = fileURLToPath(new URL("./fixtures/statement-churn.mjs", import.meta.url));

describe("the SQLite binding for this Node.js", () => {
  it("is better-sqlite3 13, on Node-API 10 (Node.js 22.14 and later)", () => {
    expect(Number(process.versions.napi)).toBeGreaterThanOrEqual(10);
    const db = new Database(":memory:");
    expect(db.prepare("SELECT sqlite_version() AS v").pluck().get()).toMatch(/^3\.\d+\.\d+$/);
    db.close();
  });

  // On Node.js 24 with better-sqlite3 12 (paysim's binding for Node.js 20, now dropped) each of
  // these ended in SIGABRT (status 134): they stay, so that no binding brings the abort back.
  it.each([
    ["collections on their own, the program ending by itself", [], "return"],
    ["forced collections between rounds", ["--expose-gc"], "return"],
    ["process.exit() while statements are alive", [], "exit"],
    ["a worker thread's environment torn down with statements alive", [], "worker"],
  ])("survives many statements prepared and dropped: %s", (_name, flags, ending) => {
    const run = spawnSync(process.execPath, [...flags, CHURN, DRIVER, ending], { encoding: "utf8" });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({ status: 0, signal: null, stderr: "" });
    expect(run.stdout).toContain("churned");
  });
});
