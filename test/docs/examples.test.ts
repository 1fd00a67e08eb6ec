// The README and docs/ are part of the product: every shell example in them runs here, as
// written, against the built `paysim`, and every link between the pages resolves.
// How a block is marked: test/docs/markdown-examples.ts.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cliEnv, PAYSIM_BIN, startCli, type CliHandle } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import {
  anchorsOf,
  CODE_LANGS,
  consoleSteps,
  matchOutput,
  readBlocks,
  relativeLinksOf,
  rewriteCommand,
  SHELL_LANGS,
  where,
  type Block,
} from "./markdown-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].map((name) => join(ROOT, name));
const BLOCKS = DOCS.flatMap((file) => readBlocks(file));

interface Walkthrough {
  file: string;
  name: string;
  blocks: Block[];
  files: Block[];
}

function walkthroughs(): Walkthrough[] {
  const byKey = new Map<string, Walkthrough>();
  const of = (file: string, name: string) => {
    const key = `${file}#${name}`;
    if (!byKey.has(key)) byKey.set(key, { file, name, blocks: [], files: [] });
    return byKey.get(key)!;
  };
  for (const block of BLOCKS) {
    if (block.marker?.kind === "example") of(block.file, block.marker.name).blocks.push(block);
    if (block.marker?.kind === "example-file") of(block.file, block.marker.name).files.push(block);
  }
  return [...byKey.values()];
}

/** The commands of a block, as typed (a `sh` block is one script). */
function commandsOf(block: Block): string[] {
  return block.lang === "console" ? consoleSteps(block).map((step) => step.command) : block.body.split("\n");
}

const isStart = (command: string) => /^paysim start(\s|$)/.test(command.trim());
/** A `paysim start` a script runs in the background itself (`npx paysim start … &`), and stops itself (`paysim stop`). */
const startsInBackground = (command: string) => /^npx paysim start(\s.*)?&$/.test(command.trim());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line in bash, in the walk-through's folder, with `paysim` on the PATH; npm stays offline, so `npx paysim` never fetches a package. */
function sh(script: string, cwd: string, binDir: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", script], {
      cwd,
      env: cliEnv({ PATH: `${binDir}:${process.env.PATH ?? ""}`, npm_config_offline: "true" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/**
 * Starts `paysim start …` as the document shows it. The examples show port 7420; two test
 * files running at once would collide on it, so the server gets a free port instead
 * (`--port 0`), and the commands' `127.0.0.1:7420` are rewritten to that port (and their shown output's).
 */
async function startAsShown(command: string, cwd: string): Promise<{ cli: CliHandle; port: number; url: string }> {
  const words = command.trim().split(/\s+/).slice(2);
  if (words.some((word) => /["'$\\]/.test(word))) throw new Error(`\`${command}\`: quoting in a shown \`paysim start\` is not supported here`);
  const at = words.indexOf("--port");
  if (at >= 0) words.splice(at, 2);
  const cli = startCli(["start", ...words, "--port", "0"], { cwd });
  const [, url] = await cli.waitFor(/listening on (http:\/\/\S+)/);
  await cli.waitFor(/^ {2}database /m);
  return { cli, port: Number(new URL(url!).port), url: url! };
}

async function run(walkthrough: Walkthrough): Promise<void> {
  // Removed when the walk-through's test finishes.
  const folder = useTempDir(`paysim-doc-${walkthrough.name}-`);
  const cwd = join(folder, "work");
  // `paysim` where a project that installed it has it: on the PATH, and found by `npx paysim`.
  const binDir = join(cwd, "node_modules", ".bin");
  mkdirSync(binDir, { recursive: true });
  writeFileSync(join(binDir, "paysim"), `#!/bin/sh\nexec "${process.execPath}" "${PAYSIM_BIN}" "$@"\n`);
  chmodSync(join(binDir, "paysim"), 0o755);
  for (const file of walkthrough.files) {
    const { path } = file.marker as { path: string };
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), `${file.body}\n`);
  }

  const ids = new Map<string, string>();
  const servers: CliHandle[] = [];
  const urls: string[] = [];
  let port: number | undefined;
  const start = async (command: string) => {
    const started = await startAsShown(command, cwd);
    servers.push(started.cli);
    urls.push(started.url);
    port = started.port;
  };
  try {
    // A walk-through that does not show `paysim start` expects one running in its folder.
    if (!walkthrough.blocks.some((block) => commandsOf(block).some((command) => isStart(command) || startsInBackground(command)))) {
      await start("paysim start");
    }
    for (const block of walkthrough.blocks) {
      if (block.lang !== "console") {
        if (commandsOf(block).some(isStart)) throw new Error(`${where(block)}: show \`paysim start\` in a console block`);
        const ran = await sh(`set -eo pipefail\n${rewriteCommand(block.body, ids, port)}`, cwd, binDir);
        expect(ran.code, `${where(block)} exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
        continue;
      }
      for (const step of consoleSteps(block)) {
        if (isStart(step.command)) {
          await start(step.command);
          continue;
        }
        const ran = await sh(rewriteCommand(step.command, ids, port), cwd, binDir);
        expect(ran.code, `${where(block)} \`${step.command}\` exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
        if (step.output.length === 0) continue;
        // The documented port in the output, as in the commands, is the one paysim listens on.
        const shown = port === undefined ? step.output : step.output.map((line) => line.replace(/\b(127\.0\.0\.1|localhost):7420\b/g, `$1:${port}`));
        const mismatch = matchOutput(shown, ran.stdout, ids);
        expect(mismatch, `${where(block)} \`${step.command}\``).toBeUndefined();
      }
    }
    // What the docs show is what a well-behaved client does: it raises no finding.
    for (const [index, server] of servers.entries()) {
      for (const [, key] of server.stdout().matchAll(/^ {2}key +(sk_test_\S+)/gm)) {
        const answer = await fetch(`${urls[index]}/v1/sandbox/report`, { headers: { Authorization: `Bearer ${key}` } }).catch(() => undefined);
        if (answer?.status !== 200) continue; // a server the walk-through stopped itself
        const { findings } = (await answer.json()) as { findings: unknown[] };
        expect(findings, `${walkthrough.file}, walk-through ${walkthrough.name}: findings of ${key}`).toEqual([]);
      }
    }
  } finally {
    for (const server of servers) {
      const stopped = await server.stop("SIGINT");
      expect(stopped.code, `paysim start of ${walkthrough.name} stopped with ${stopped.code}\n${stopped.stderr}`).toBe(0);
    }
  }
}

describe("the documentation's examples", () => {
  it("reads examples from the README and every page of docs/", () => {
    expect(DOCS.map((file) => file.slice(ROOT.length)).sort()).toEqual(expect.arrayContaining(["README.md", "docs/cli.md", "docs/install.md"]));
    expect(walkthroughs().length).toBeGreaterThan(0);
  });

  it("marks every shell and code block as runnable or as not runnable with a reason", () => {
    const unmarked = BLOCKS.filter((block) => (SHELL_LANGS.has(block.lang) || CODE_LANGS.has(block.lang)) && block.marker === undefined);
    expect(unmarked.map((block) => `${where(block)} (${block.lang})${block.badMarker ? `: unreadable marker "${block.badMarker}"` : ""}`)).toEqual([]);
    const misplaced = BLOCKS.filter(
      (block) => (block.marker?.kind === "example" && !SHELL_LANGS.has(block.lang)) || (block.marker?.kind === "example-code" && !CODE_LANGS.has(block.lang)),
    );
    expect(misplaced.map(where)).toEqual([]);
  });

  it.each(walkthroughs().map((walkthrough) => [`${walkthrough.file.slice(ROOT.length)} ${walkthrough.name}`, walkthrough] as const))(
    "runs the walk-through %s as written",
    async (_name, walkthrough) => {
      expect(walkthrough.blocks.length, `${walkthrough.name} has files but no commands`).toBeGreaterThan(0);
      await run(walkthrough);
    },
    120_000,
  );

  it("keeps every code example in the test that runs it, as written", () => {
    const kept = BLOCKS.filter((block) => block.marker?.kind === "example-code");
    expect(kept.length).toBeGreaterThan(0);
    for (const block of kept) {
      const { path } = block.marker as { path: string };
      const test = readFileSync(join(ROOT, path), "utf8");
      expect(test.includes(block.body), `${where(block)} differs from ${path}`).toBe(true);
    }
  });

  it("has every link between the pages resolve, to a file and to a heading in it", () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      const text = readFileSync(file, "utf8");
      for (const link of relativeLinksOf(text)) {
        const [target, anchor] = link.split("#") as [string, string | undefined];
        const path = target === "" ? file : resolve(dirname(file), target);
        if (!existsSync(path)) {
          broken.push(`${file.slice(ROOT.length)}: ${link} (no such file)`);
          continue;
        }
        if (anchor !== undefined && path.endsWith(".md") && !anchorsOf(readFileSync(path, "utf8")).has(anchor)) {
          broken.push(`${file.slice(ROOT.length)}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
