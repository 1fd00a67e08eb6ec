// The install steps the README and docs/install.md show for a project of one's own, run as written
// in a new project with paysim's own tarball (`npm pack` of this checkout) and the npm registry.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { defer, suiteScope, useTempDir } from "../helpers/disposables.js";
import { readBlocks, type Block } from "./markdown-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const THIS_TEST = "test/docs/install-steps.test.ts";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const TARBALL = `paysim-${VERSION}.tgz`;

/** The block of `page` whose marker says this test runs it. */
function shownBlock(page: string): Block {
  const blocks = readBlocks(join(ROOT, page)).filter((block) => block.marker?.kind === "not-runnable" && block.marker.reason.includes(THIS_TEST));
  expect(blocks.length, `${page} marks one block as run by ${THIS_TEST}`).toBe(1);
  return blocks[0]!;
}

/**
 * npm as the project's owner runs it, with this Node.js first on the PATH. `nodedir` points
 * node-gyp at no headers, as on a CI network where only the npm registry is reachable: a build
 * step that runs fails, as it would there.
 */
const npmEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
  npm_config_nodedir: "/nonexistent-node-headers",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
});

interface Ran {
  code: number;
  output: string;
}

/** Runs a shell script in `cwd`; resolves with its exit code and what it printed, whatever the code. */
async function sh(script: string, cwd: string): Promise<Ran> {
  return promisify(execFile)("bash", ["-c", script], { cwd, env: npmEnv(), maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (failure: { code: number; stdout: string; stderr: string }) => ({ code: failure.code, output: failure.stdout + failure.stderr }),
  );
}

const suite = suiteScope();
let packed: string;
beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first.");
  const folder = useTempDir("paysim-pack-", suite);
  const ran = await sh(`npm pack --ignore-scripts --pack-destination ${JSON.stringify(folder)} ${JSON.stringify(ROOT)}`, folder);
  expect(ran.code, ran.output).toBe(0);
  packed = join(folder, TARBALL);
}, 120_000);

/** A new project holding paysim's tarball, as `npm pack` in a clone names it. */
function newProject(): string {
  const project = useTempDir("paysim-project-");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-shop", private: true }, null, 2));
  copyFileSync(packed, join(project, TARBALL));
  return project;
}

describe("installing paysim into a project of one's own", () => {
  it("installs from the tarball and starts, with the README's quick start line", async () => {
    const [line] = shownBlock("README.md").body.split("\n");
    const command = line!.replace(/\s+#.*$/, "");
    expect(command).toBe(`npm install --save-dev ./${TARBALL} && npx paysim start`);
    const project = newProject();
    // Port 0 and an in-memory database through the environment, so that the command runs as shown.
    const child = spawn("bash", ["-c", command], {
      cwd: project,
      env: { ...npmEnv(), PAYSIM_PORT: "0", PAYSIM_DB: ":memory:" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = once(child, "exit");
    defer(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-child.pid!, "SIGKILL");
        await exited;
      }
    });
    let printed = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk));
    let url: string | undefined;
    while (url === undefined) {
      await Promise.race([once(child.stdout, "data"), once(child.stderr, "data"), exited]);
      if (child.exitCode !== null) throw new Error(`\`${command}\` exited ${child.exitCode} before paysim listened:\n${printed}`);
      url = /listening on (http:\/\/\S+)/.exec(printed)?.[1];
    }
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toMatchObject({ status: "ok", version: VERSION });
    process.kill(-child.pid!, "SIGINT");
    await exited;
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).devDependencies).toEqual({ paysim: `file:${TARBALL}` });
  }, 180_000);

  it("denies better-sqlite3's build step and installs, with docs/install.md's steps, right after npm ci failed on it", async () => {
    const project = newProject();
    const installed = await sh(`npm install --save-dev ./${TARBALL}`, project);
    expect(installed.code, installed.output).toBe(0);
    // The state the page starts from: `npm ci` failed in better-sqlite3's build step, node_modules left empty.
    const failed = await sh("npm ci", project);
    expect(failed.code, failed.output).not.toBe(0);
    expect(failed.output).toContain("node-gyp rebuild");
    expect(existsSync(join(project, "node_modules", "better-sqlite3"))).toBe(false);
    const denied = await sh("npm deny-scripts better-sqlite3", project);
    expect({ code: denied.code, enomatch: denied.output.includes("No installed packages match") }).toEqual({ code: 1, enomatch: true });

    const steps = shownBlock("docs/install.md").body;
    const ran = await sh(`set -e\n${steps}`, project);
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).allowScripts).toEqual({ "better-sqlite3": false });
    // paysim runs on what that install made: its SQLite binding loads.
    const started = await sh(
      `node --input-type=module -e 'const { startPaysim } = await import("paysim"); const p = await startPaysim(); console.log((await fetch(p.url + "/health")).status); await p.close();'`,
      project,
    );
    expect(started.output.trim()).toBe("200");
  }, 180_000);
});
