import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";

/** The environment of a run whose cache folder is `cacheHome`'s, Node.js's own settings of the test process left out. */
const cachedIn = (cacheHome: string, extra: Record<string, string | undefined> = {}) => ({
  env: { XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined, ...extra },
});

/** The compile cache bin/paysim.js keeps (docs/install.md, "Node.js's compile cache"). */
describe("paysim's compile cache", () => {
  it("is kept in the user's cache folder, where the next run reuses it", async () => {
    const cacheHome = useTempDir("paysim-cache-home-");
    const first = await runCli(["--version"], cachedIn(cacheHome));
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(readdirSync(join(cacheHome, "paysim", "node-compile-cache"), { recursive: true }).length).toBeGreaterThan(0);
    const again = await runCli(["--version"], cachedIn(cacheHome));
    expect(again).toMatchObject({ code: 0, stdout: first.stdout, stderr: "" });
  });

  it("is not written with NODE_DISABLE_COMPILE_CACHE=1", async () => {
    const cacheHome = useTempDir("paysim-cache-off-");
    const result = await runCli(["--version"], cachedIn(cacheHome, { NODE_DISABLE_COMPILE_CACHE: "1" }));
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(existsSync(join(cacheHome, "paysim"))).toBe(false);
  });

  it("is only skipped, with nothing said, where the cache folder cannot be made", async () => {
    // A file where the folder would go: no mkdir makes a folder under it, whoever runs the test.
    const notAFolder = join(useTempDir("paysim-cache-blocked-"), "file");
    writeFileSync(notAFolder, "");
    const result = await runCli(["--version"], cachedIn(notAFolder));
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
