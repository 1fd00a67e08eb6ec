import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";

/** A preload that makes the paysim binary see another Node.js version, as an old install would report it. */
function pretendNode(version: string): string {
  const path = join(useTempDir("paysim-node-version-"), "pretend.cjs");
  writeFileSync(
    path,
    `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } });
     Object.defineProperty(process, "version", { value: ${JSON.stringify(`v${version}`)} });`,
  );
  return path;
}

describe("paysim on a Node.js it does not support", () => {
  it("exits 1 with one line naming the version it needs and the one it found, before doing anything", async () => {
    const cwd = useTempDir("paysim-node-version-cwd-");
    const result = await runCli(["start", "--port", "0"], { cwd, env: { NODE_OPTIONS: `--require ${pretendNode("18.20.4")}` } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("paysim needs Node.js 20 or newer (22 or 24 recommended); this is Node.js v18.20.4.\n");
    // Nothing happened: no .paysim folder, no database.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("runs on the versions it supports", async () => {
    for (const version of ["20.0.0", "22.0.0", "24.0.0"]) {
      const result = await runCli(["--version"], { env: { NODE_OPTIONS: `--require ${pretendNode(version)}` } });
      expect({ version, code: result.code, stderr: result.stderr }).toEqual({ version, code: 0, stderr: "" });
    }
  });

  it("says in one line when the SQLite binding for this Node.js is missing (a compile that failed at install)", async () => {
    const preload = join(useTempDir("paysim-no-binding-"), "no-binding.cjs");
    writeFileSync(
      preload,
      `const Module = require("node:module");
       const resolve = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) {
         if (/^better-sqlite3(-v12)?$/.test(request)) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
         return resolve.call(this, request, ...rest);
       };`,
    );
    const result = await runCli(["start", "--port", "0", "--db", ":memory:"], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      expect.stringMatching(/^paysim cannot load its SQLite binding for Node\.js v\d+\.\d+\.\d+ \(better-sqlite3(-v12)?\): Cannot find module/),
      "",
    ]);
  });
});
