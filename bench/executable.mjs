#!/usr/bin/env node
// node bench/executable.mjs [path/to/paysim]: the single executable (npm run build:executable)
// beside the npm install's `node bin/paysim.js`: its size, and cold starts of each, alternating,
// median of 9 after one run each that is not counted (the executable writes its assets to the
// cache on its first run, Node.js fills its compile cache for bin/paysim.js on its). The
// executable runs with no Node.js on PATH. Not part of npm test: the numbers are recorded in
// docs/performance.md, never asserted.
import { spawn } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { firstHealth, stop, temporaryDirectory, tracked } from "./processes.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const EXECUTABLE = resolve(process.argv[2] ?? join(ROOT, "dist-executable", "paysim"));
const RUNS = 9;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const programs = {
  "node bin/paysim.js": { command: process.execPath, prefix: [join(ROOT, "bin", "paysim.js")], env: process.env },
  executable: { command: EXECUTABLE, prefix: [], env: { PATH: "/usr/bin:/bin", HOME: process.env.HOME } },
};

/** Spawn → exit of `paysim --version`. */
function versionOnce({ command, prefix, env }) {
  const started = performance.now();
  const child = spawn(command, [...prefix, "--version"], { env, stdio: "ignore" });
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done(performance.now() - started) : fail(new Error(`--version exited ${code}`))));
  });
}

/** Spawn → first 200 on /health of `paysim start --no-ui` on a new file database. */
async function startOnce({ command, prefix, env }) {
  const dir = temporaryDirectory("paysim-bench-executable-");
  const started = performance.now();
  const args = [...prefix, "start", "--no-ui", "--port", "0", "--db", join(dir, "paysim.db")];
  const child = tracked(spawn(command, args, { cwd: dir, env, stdio: ["ignore", "pipe", "inherit"] }));
  const url = await new Promise((done) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) done(match[1]);
    });
  });
  await firstHealth(url);
  const elapsed = performance.now() - started;
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
  return elapsed;
}

const results = {};
for (const [measure, once] of Object.entries({ "--version": versionOnce, start: startOnce })) {
  const times = Object.fromEntries(Object.keys(programs).map((label) => [label, []]));
  for (let i = 0; i <= RUNS; i++) {
    for (const [label, program] of Object.entries(programs)) {
      const elapsed = await once(program);
      if (i > 0) times[label].push(elapsed);
    }
  }
  results[measure] = Object.fromEntries(Object.entries(times).map(([label, runs]) => [label, Math.round(median(runs))]));
}

console.log(`executable: ${EXECUTABLE}, ${(statSync(EXECUTABLE).size / 1024 / 1024).toFixed(1)} MiB`);
for (const [measure, byProgram] of Object.entries(results)) {
  const ratio = (byProgram.executable / byProgram["node bin/paysim.js"]).toFixed(2);
  console.log(
    `cold start ${measure.padEnd(9)} node bin/paysim.js ${byProgram["node bin/paysim.js"]} ms, executable ${byProgram.executable} ms (x${ratio}), median of ${RUNS}`,
  );
}
