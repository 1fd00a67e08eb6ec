#!/usr/bin/env node
// node bench/ab.mjs: this build against another one (the base), measured alternately in one run
// (docs/performance.md, "A/B against a base build"). Not part of npm test or npm run bench:
// numbers depend on the machine; they are recorded, never asserted.
//
// AB_BASE     the other checkout, built (default /work/ab-base)
// AB_ROUNDS   rounds, each measuring both builds, their order swapped every round (default 8)
// AB_DURATION seconds per throughput measure (default 3)
import autocannon from "autocannon";
import { firstHealth, startServer, stop, temporaryDirectory, BENCH_KEY, paysimArgs, send } from "./processes.mjs";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const ROOT = new URL("..", import.meta.url).pathname;
const KEY = BENCH_KEY;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (x) => Number(x.toFixed(2));

/** `node bench/ab.mjs start-paysim <dist/index.js> <n>`: startPaysim() + first /health, n times once warm; prints the median in ms. */
async function startPaysimChild(indexJs, times) {
  const { startPaysim } = await import(pathToFileURL(resolve(indexJs)).href);
  const runs = [];
  for (let i = 0; i <= times; i++) {
    const started = performance.now();
    const paysim = await startPaysim();
    await (await fetch(`${paysim.url}/health`)).text();
    if (i > 0) runs.push(performance.now() - started); // the first one loads the code
    await paysim.close();
  }
  process.stdout.write(`${JSON.stringify({ median_ms: median(runs) })}\n`);
}

if (process.argv[2] === "start-paysim") {
  await startPaysimChild(process.argv[3], Number(process.argv[4]));
  process.exit(0);
}

const BASE = resolve(process.env.AB_BASE ?? "/work/ab-base");
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const DURATION = Number(process.env.AB_DURATION ?? 3);
/** Flows (and floor triples) timed per visit, after as many not timed. */
const FLOWS = 200;
/** Cold starts per visit of a build, each followed by one of the floor. */
const COLD_STARTS = 3;
/** As many as npm run bench's instances measure. */
const START_PAYSIM_RUNS = 30;

const BUILDS = { current: ROOT, base: BASE };

/** A new temporary directory, removed when the bench exits. */
const scratch = () => temporaryDirectory("paysim-ab-");

const floorArgs = () => [join(ROOT, "bench/floor.mjs")];

/** Spawn → first 200 on /health. */
async function coldStart(cwd, args) {
  const dir = scratch();
  const server = await startServer(args(dir), { cwd });
  await firstHealth(server.url);
  const elapsed = performance.now() - server.spawnedAt;
  await stop(server.child);
  rmSync(dir, { recursive: true, force: true });
  return elapsed;
}

/** The CPU time (user + system, µs) process `pid` has used so far. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks of 1/100 s
}

/**
 * Requests a second, and the server's CPU per request (µs): on a machine shared with other
 * work the rate swings with the load, the CPU a request costs much less.
 */
function cannon(options, pid) {
  return new Promise((resolveRun, reject) => {
    const cpuBefore = cpuMicros(pid);
    autocannon({ connections: 50, duration: DURATION, ...options }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors + result.timeouts > 0)
        return reject(new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolveRun({ rate: result.requests.average, cpuMicros: (cpuMicros(pid) - cpuBefore) / result.requests.total });
    });
  });
}

/** As many creations as one connection can send in a measure, each under a key of its own (as bench/run.mjs's). */
function creations(keyPrefix) {
  return Array.from({ length: Math.ceil((15_000 * DURATION) / 50) }, (_, i) => ({
    method: "POST",
    path: "/v1/payment_intents",
    body: '{"amount":1000,"description":"ab"}',
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "idempotency-key": `${keyPrefix}-${i}` },
  }));
}

/** Median ms of `step()` run FLOWS times one after another, after as many not timed. */
async function timedSequence(step) {
  const runs = [];
  for (let i = 0; i < 2 * FLOWS; i++) {
    const started = performance.now();
    await step(i);
    if (i >= FLOWS) runs.push(performance.now() - started);
  }
  return median(runs);
}

let flowKeys = 0;
/** create (manual capture) → authorize → capture, one client, one kept-alive connection. */
function paysimFlow(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return timedSequence(async () => {
    const key = `flow-${process.pid}-${flowKeys++}`;
    const intent = await send(agent, url, "POST", "/v1/payment_intents", '{"amount":1000,"capture_method":"manual"}', { "idempotency-key": key });
    await send(agent, url, "POST", `/v1/payment_intents/${intent.id}/authorize`, '{"payment_method":"pm_card_visa"}', {});
    const captured = await send(agent, url, "POST", `/v1/payment_intents/${intent.id}/capture`, undefined, {});
    if (captured.state !== "captured") throw new Error(`The flow ended ${captured.state}`);
  }).finally(() => agent.destroy());
}

/** Three POSTs with a JSON body to the floor, the same client. */
function floorTriple(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return timedSequence(async () => {
    for (let i = 0; i < 3; i++) await send(agent, url, "POST", "/floor", '{"amount":1000}', {});
  }).finally(() => agent.destroy());
}

function startPaysimWarm(root) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "bench/ab.mjs"), "start-paysim", join(root, "dist/index.js"), String(START_PAYSIM_RUNS)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.once("exit", (code) => (code === 0 ? resolveRun(JSON.parse(out).median_ms) : reject(new Error(`startPaysim() in ${root} exited with ${code}`))));
  });
}

/** Every measure of one build, once; cold starts alternate with the floor's, whose times come back too. */
async function visit(root) {
  const floorCold = [];
  const cold = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    cold.push(await coldStart(root, (dir) => paysimArgs(root, dir)));
    floorCold.push(await coldStart(ROOT, floorArgs));
  }
  const startPaysim = await startPaysimWarm(root);

  const dir = scratch();
  const server = await startServer(paysimArgs(root, dir), { cwd: root });
  await firstHealth(server.url);
  const agent = new Agent({ keepAlive: true });
  const seed = await send(agent, server.url, "POST", "/v1/payment_intents", '{"amount":1000}', { "idempotency-key": "seed" });
  agent.destroy();
  const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const readOptions = { url: `${server.url}/v1/payment_intents/${seed.id}`, headers };
  const pid = server.child.pid;
  await cannon({ ...readOptions, duration: 1 }, pid); // warms the JIT for both measures
  const read = await cannon(readOptions, pid);
  const replay = await cannon(
    { url: `${server.url}/v1/payment_intents`, method: "POST", body: '{"amount":1000}', headers: { ...headers, "idempotency-key": "seed" } },
    pid,
  );
  // Creations last, each with a key of its own, so that the reads and replays above run on the same small table in both builds.
  let connection = 0;
  const create = await cannon(
    {
      url: `${server.url}/v1/payment_intents`,
      setupClient: (client) => client.setRequests(creations(`ab-${process.pid}-${flowKeys++}-${connection++}`)),
    },
    pid,
  );
  const flow = await paysimFlow(server.url);
  await stop(server.child);
  rmSync(dir, { recursive: true, force: true });

  const floor = await startServer(floorArgs(), { cwd: ROOT });
  const floorFlow = await floorTriple(floor.url);
  await stop(floor.child);
  return {
    cold,
    floorCold,
    startPaysim,
    read: read.rate,
    readCpu: read.cpuMicros,
    replay: replay.rate,
    replayCpu: replay.cpuMicros,
    create: create.rate,
    createCpu: create.cpuMicros,
    flow,
    floorFlow,
  };
}

const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ["current", "base"] : ["base", "current"];
  const round = {};
  for (const label of order) round[label] = await visit(BUILDS[label]);
  rounds.push(round);
  const line = (label) => {
    const v = round[label];
    return `${label} read ${Math.round(v.read)}/s (${Math.round(v.readCpu)} µs) create ${Math.round(v.create)}/s (${Math.round(v.createCpu)} µs) replay ${Math.round(v.replay)}/s (${Math.round(v.replayCpu)} µs) cold ${Math.round(median(v.cold))} ms (floor ${Math.round(median(v.floorCold))}) startPaysim ${v.startPaysim.toFixed(2)} ms flow ${v.flow.toFixed(2)} ms (floor ×3 ${v.floorFlow.toFixed(2)})`;
  };
  console.error(`round ${r + 1}/${ROUNDS}: ${line("current")} | ${line("base")}`);
}

/** Per build: medians over the rounds, each ratio taken within its own visit. */
function summarise(label) {
  const visits = rounds.map((round) => round[label]);
  return {
    read_req_per_s: Math.round(median(visits.map((v) => v.read))),
    replay_req_per_s: Math.round(median(visits.map((v) => v.replay))),
    read_cpu_us: Math.round(median(visits.map((v) => v.readCpu))),
    replay_cpu_us: Math.round(median(visits.map((v) => v.replayCpu))),
    create_req_per_s: Math.round(median(visits.map((v) => v.create))),
    create_cpu_us: Math.round(median(visits.map((v) => v.createCpu))),
    cold_start_ms: Math.round(median(visits.flatMap((v) => v.cold))),
    cold_start_ratio_to_floor: round2(median(visits.map((v) => median(v.cold) / median(v.floorCold)))),
    start_paysim_warm_ms: round2(median(visits.map((v) => v.startPaysim))),
    flow_ms: round2(median(visits.map((v) => v.flow))),
    flow_ratio_to_floor: round2(median(visits.map((v) => v.flow / v.floorFlow))),
  };
}
const current = summarise("current");
const base = summarise("base");
const pairRatio = (measure) => round2(median(rounds.map((round) => round.current[measure] / round.base[measure])));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  base: BASE,
  rounds: ROUNDS,
  duration_s: DURATION,
  current,
  base_build: base,
  current_to_base: {
    read: pairRatio("read"),
    replay: pairRatio("replay"),
    read_cpu: pairRatio("readCpu"),
    replay_cpu: pairRatio("replayCpu"),
    create: pairRatio("create"),
    create_cpu: pairRatio("createCpu"),
    start_paysim_warm: pairRatio("startPaysim"),
    cold_start_ratio: round2(current.cold_start_ratio_to_floor / base.cold_start_ratio_to_floor),
  },
  raw: rounds,
};
writeFileSync(join(ROOT, "bench/ab-results.json"), `${JSON.stringify(results, null, 2)}\n`);
const row = (name, a, b, ratio) =>
  console.log(`${name.padEnd(34)} ${String(a).padStart(10)} ${String(b).padStart(10)} ${ratio === undefined ? "" : `×${ratio}`}`);
console.log(`${"".padEnd(34)} ${"current".padStart(10)} ${"base".padStart(10)} current/base (median of per-round ratios)`);
row("read by id (req/s)", current.read_req_per_s, base.read_req_per_s, results.current_to_base.read);
row("idempotent replay (req/s)", current.replay_req_per_s, base.replay_req_per_s, results.current_to_base.replay);
row("read: server CPU per request (µs)", current.read_cpu_us, base.read_cpu_us, results.current_to_base.read_cpu);
row("replay: server CPU per request (µs)", current.replay_cpu_us, base.replay_cpu_us, results.current_to_base.replay_cpu);
row("create (req/s)", current.create_req_per_s, base.create_req_per_s, results.current_to_base.create);
row("create: server CPU per request (µs)", current.create_cpu_us, base.create_cpu_us, results.current_to_base.create_cpu);
row("cold start (ms)", current.cold_start_ms, base.cold_start_ms);
row("cold start / floor's", current.cold_start_ratio_to_floor, base.cold_start_ratio_to_floor, results.current_to_base.cold_start_ratio);
row("startPaysim() warm + /health (ms)", current.start_paysim_warm_ms, base.start_paysim_warm_ms, results.current_to_base.start_paysim_warm);
row("create→authorize→capture (ms)", current.flow_ms, base.flow_ms);
row("  / three bare-Hono POSTs", current.flow_ratio_to_floor, base.flow_ratio_to_floor);
