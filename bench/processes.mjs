// The bench's servers and scratch directories (bench/run.mjs and bench/ab.mjs): spawned servers
// are killed and directories removed when the bench exits, however it ends.
import { spawn } from "node:child_process";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const running = new Set();
const directories = new Set();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

/** `child`, killed if the bench exits before it does. */
export function tracked(child) {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** A new temporary directory, removed when the bench exits. */
export function temporaryDirectory(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  directories.add(dir);
  return dir;
}

/**
 * Spawns `node args` (or `command args`) in `cwd` and resolves when its banner names its URL, with
 * when it was spawned.
 */
export function startServer(args, { cwd, label = args.join(" "), command = process.execPath, env = {} }) {
  const spawnedAt = performance.now();
  const child = tracked(spawn(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NO_COLOR: "1", ...env } }));
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        child.stdout.off("data", onData);
        child.stdout.resume(); // keep draining its log lines
        resolve({ child, url: match[1], spawnedAt });
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${label} exited with ${code} before listening:\n${out}`)));
  });
}

/** Stops a server and resolves once it has exited. */
export function stop(child) {
  return new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

/** Resolves at the first 200 on `/health`: a cold start is what is being timed, so it asks again at once. */
export async function firstHealth(url) {
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The key the bench servers are started with. */
export const BENCH_KEY = "sk_test_bench_0000000001";

/** The arguments that start the checkout at `root` as a bench server: a file database in `dir`, the bench key, payouts moved by hand. */
export const paysimArgs = (root, dir) => [
  join(root, "bin/paysim.js"),
  "start",
  "--no-ui",
  "--port",
  "0",
  "--db",
  join(dir, "p.db"),
  "--secret-key",
  BENCH_KEY,
  "--payouts",
  "manual",
];

/** One request on a kept-alive connection (`agent`); resolves to the parsed answer (throws on a non-2xx). */
export function send(agent, url, method, path, body, headers = {}) {
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      `${url}${path}`,
      { method, agent, headers: { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json", ...headers } },
      (res) => {
        const parts = [];
        res.on("data", (part) => parts.push(part));
        res.on("end", () => {
          const text = Buffer.concat(parts).toString();
          if (res.statusCode >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
          else resolveAnswer(JSON.parse(text));
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
