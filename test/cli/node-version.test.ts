import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

/** A preload that makes loading native modules fail with `message` and, when given, `code`, as Node.js would. */
function failingNativeLoad(message: string, code?: string): string {
  const path = join(useTempDir("paysim-native-load-"), "fail.cjs");
  writeFileSync(path, `process.dlopen = function () { throw Object.assign(new Error(${JSON.stringify(message)}), ${JSON.stringify(code ? { code } : {})}); };`);
  return path;
}

async function startIn(cwd: string, preload: string) {
  return runCli(["start", "--port", "0"], { cwd, env: { NODE_OPTIONS: `--require ${preload}` } });
}

describe("paysim on a Node.js it does not support", () => {
  it.each(["18.20.4", "20.20.2", "22.13.1"])(
    "refuses Node.js %s in one line naming the version it needs and the one it found, before doing anything",
    async (version) => {
      const cwd = useTempDir("paysim-node-version-cwd-");
      const result = await startIn(cwd, pretendNode(version));
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`paysim needs Node.js 22.14 or newer (22 or 24); this is Node.js v${version}.\n`);
      // Nothing happened: no .paysim folder, no database.
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it("prints the refusal docs/install.md shows", async () => {
    const shown = readFileSync(fileURLToPath(new URL("../../docs/install.md", import.meta.url)), "utf8")
      .split("\n")
      .find((line) => line.startsWith("paysim needs Node.js"));
    const result = await startIn(useTempDir("paysim-node-version-docs-"), pretendNode("20.20.2"));
    expect(result.stderr).toBe(`${shown}\n`);
  });

  it("runs on the versions it supports", async () => {
    for (const version of ["22.14.0", "22.23.3", "24.0.0", "25.1.0"]) {
      const result = await runCli(["--version"], { env: { NODE_OPTIONS: `--require ${pretendNode(version)}` } });
      expect({ version, code: result.code, stderr: result.stderr }).toEqual({ version, code: 0, stderr: "" });
    }
  });

  it("says in one line, naming the fix, when node_modules was built by another Node.js, before making any file", async () => {
    const cwd = useTempDir("paysim-other-abi-cwd-");
    const nodeError =
      "The module '/somewhere/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
      "was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\n" +
      "NODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";
    const result = await startIn(cwd, failingNativeLoad(nodeError, "ERR_DLOPEN_FAILED"));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `paysim cannot load its SQLite binding (better-sqlite3) on Node.js ${process.version}: its node_modules was built by Node.js 20 (NODE_MODULE_VERSION 115), ` +
        "and this Node.js needs 137. Run npm rebuild better-sqlite3, or a fresh npm ci, with this Node.js.\n",
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("says in one line when the SQLite binding cannot be found", async () => {
    const preload = join(useTempDir("paysim-no-binding-"), "no-binding.cjs");
    writeFileSync(
      preload,
      `const Module = require("node:module");
       const resolve = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) {
         if (request === "better-sqlite3") throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
         return resolve.call(this, request, ...rest);
       };`,
    );
    const cwd = useTempDir("paysim-no-binding-cwd-");
    const result = await startIn(cwd, preload);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `paysim cannot load its SQLite binding (better-sqlite3) on Node.js ${process.version}: Cannot find module 'better-sqlite3'. Run npm install (or npm ci) again.\n`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });
});
