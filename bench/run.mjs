#!/usr/bin/env node
// npm run bench: measures the built paysim against the floor of its own stack, in one run.
// Not part of npm test: numbers depend on the machine; they are recorded, never asserted.
import autocannon from "autocannon";
import { firstHealth, startServer, stop, temporaryDirectory, tracked } from "./processes.mjs";
import { Database } from "../dist/store/sqlite-driver.js";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, Agent } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const ROOT = new URL("..", import.meta.url).pathname;
/** Seconds per throughput measure: BENCH_DURATION (default 10), for a quicker look while working. */
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
if (!Number.isFinite(DURATION) || DURATION <= 0) {
  console.error(`BENCH_DURATION must be a positive number of seconds (got "${process.env.BENCH_DURATION}").`);
  process.exit(2);
}
const CONNECTIONS = 50;
const KEY = "sk_test_bench_0000000001";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

/** Spawn → first 200 on /health, once. */
async function startOnce(args) {
  const dir = temporaryDirectory("paysim-bench-cold-");
  const started = performance.now();
  const child = tracked(spawn(process.execPath, args(dir), { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] }));
  let url;
  await new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && !url) {
        url = match[1];
        resolve();
      }
    });
  });
  await firstHealth(url);
  const elapsed = performance.now() - started;
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
  return elapsed;
}

/**
 * Cold starts of several servers, median of 5 each. The runs alternate between
 * the servers, so that a slower stretch of the machine (the disk still writing
 * back the throughput runs' database, say) weighs on all of them alike.
 */
async function coldStarts(servers) {
  const times = Object.fromEntries(Object.keys(servers).map((label) => [label, []]));
  for (let i = 0; i < 5; i++) for (const [label, args] of Object.entries(servers)) times[label].push(await startOnce(args));
  return Object.fromEntries(
    Object.entries(times).map(([label, runs]) => [label, { label, median_ms: Math.round(median(runs)), runs_ms: runs.map(Math.round) }]),
  );
}

/**
 * Lets the machine go quiet before the next measure: the creations leave
 * hundreds of megabytes for the kernel to write back, and a measure taken
 * while it does read up to a third slower, so `sync` waits for that.
 */
async function quiet() {
  execFileSync("sync");
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** The run with the median req/s. */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.req_per_s - b.req_per_s)[Math.floor(runs.length / 2)];
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const summary = (result) => ({
  req_per_s: Math.round(result.requests.average),
  answered: result.requests.total,
  p50_ms: result.latency.p50,
  p99_ms: result.latency.p99,
  non_2xx: result.non2xx,
  errors: result.errors + result.timeouts,
});

const jsonHeaders = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

/**
 * Each connection's creations are built before the measure, each with its own
 * Idempotency-Key, like every other measure's requests. Built one at a time as
 * answers came back (autocannon's setupRequest), they cost the bench 119-149 µs
 * of CPU per creation, against about 50 for a prebuilt request, on the two cores
 * paysim shares with it, and they held each connection's next request back
 * behind that work: paysim spent 306-372 µs of CPU per creation against 240-354
 * with prebuilt ones, in three alternating pairs. Enough for 15,000 creations a
 * second, above any rate seen here; the count of payment intents made, checked
 * after the run, proves that no key was sent twice.
 */
const CREATIONS_PER_CONNECTION = Math.ceil((15_000 * DURATION) / CONNECTIONS);

/** The body of every creation measured: its description tells them from the seeds (see paymentIntentsMade). */
const CREATION_BODY = '{"amount":1000,"description":"bench"}';

function creations(keyPrefix, count) {
  return Array.from({ length: count }, (_, i) => ({
    method: "POST",
    path: "/v1/payment_intents",
    body: CREATION_BODY,
    headers: { ...jsonHeaders, "idempotency-key": `${keyPrefix}-${i}` },
  }));
}

/** Payment intents the create measure made (its body alone has a description), read from paysim's database after it stopped. */
function paymentIntentsMade(dbPath) {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM payment_intents WHERE description = 'bench'").pluck().get();
  } finally {
    db.close();
  }
}

async function httpJson(url, method, path, body, headers = {}) {
  const res = await fetch(url + path, { method, headers: { ...jsonHeaders, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}

async function main() {
  const dir = temporaryDirectory("paysim-bench-");
  const db = join(dir, "paysim.db");
  const results = { date: new Date().toISOString(), node: process.version, connections: CONNECTIONS, duration_s: DURATION };

  // --- throughput -------------------------------------------------------------------------
  const floor = await startServer([join(ROOT, "bench/floor.mjs")], { cwd: ROOT, label: "floor" });
  const paysim = await startServer([join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", db, "--secret-key", KEY, "--payouts", "manual"], {
    cwd: ROOT,
    label: "paysim",
  });
  await firstHealth(paysim.url);
  results.rss_idle_mb = rssMb(paysim.child.pid);

  const seed = await httpJson(paysim.url, "POST", "/v1/payment_intents", { amount: 1000 }, { "idempotency-key": "seed" });
  for (let i = 0; i < 20; i++) await httpJson(paysim.url, "POST", "/v1/payment_intents", { amount: 1000 + i }, { "idempotency-key": `seed-${i}` });

  // The floor runs before the first measure and after each one: a measure's ratio is to the mean
  // of the floor runs on either side of it, taken under the same conditions of this machine,
  // whose speed drifts by a third within minutes.
  const floorRuns = [];
  const floorRun = async () => {
    await quiet();
    const run = summary(await cannon({ url: `${floor.url}/floor` }));
    floorRuns.push(run);
    return run;
  };
  let before = await floorRun();
  const measure = async (options) => {
    await quiet();
    const run = summary(await cannon(options));
    // A measure whose requests failed measured the failures, not the path it names.
    if (run.non_2xx > 0 || run.errors > 0)
      throw new Error(`${options.method ?? "GET"} ${options.url}: ${run.non_2xx} non-2xx answers and ${run.errors} errors in the measure.`);
    const after = await floorRun();
    const floorRps = (before.req_per_s + after.req_per_s) / 2;
    before = after;
    return { ...run, floor_req_per_s: Math.round(floorRps), ratio_to_floor: Number((run.req_per_s / floorRps).toFixed(2)) };
  };
  let connection = 0;
  const create = await measure({
    url: paysim.url,
    requests: creations("unsent", 1), // setupClient replaces it with the connection's own before it connects
    setupClient: (client) => client.setRequests(creations(`bench-${process.pid}-${connection++}`, CREATIONS_PER_CONNECTION)),
  });
  // How fast a durable creation can be on this stack, measured the same way (bench/durable-create.mjs).
  const createReferences = {};
  for (const mode of ["one-row", "paysim-rows"]) {
    const reference = await startServer([join(ROOT, "bench/durable-create.mjs"), mode], { cwd: ROOT, label: `${mode} reference` });
    createReferences[mode.replace("-", "_")] = await measure({
      url: `${reference.url}/create`,
      method: "POST",
      body: CREATION_BODY,
      headers: { "content-type": "application/json" },
    });
    await stop(reference.child);
  }
  const read = await measure({ url: `${paysim.url}/v1/payment_intents/${seed.id}`, headers: jsonHeaders });
  const list = await measure({ url: `${paysim.url}/v1/payment_intents?limit=10`, headers: jsonHeaders });
  const replay = await measure({
    url: `${paysim.url}/v1/payment_intents`,
    method: "POST",
    body: JSON.stringify({ amount: 1000 }),
    headers: { ...jsonHeaders, "idempotency-key": "seed" },
  });
  results.rss_after_load_mb = rssMb(paysim.child.pid);

  const floorRps = floorRuns.map((run) => run.req_per_s);
  results.throughput = {
    floor_get: { ...medianRun(floorRuns), runs_req_per_s: floorRps },
    create_payment_intent: create,
    create_references: createReferences,
    read_by_id: read,
    list_limit_10: list,
    idempotent_replay: replay,
  };
  await stop(paysim.child);
  await stop(floor.child);
  create.payment_intents_made = paymentIntentsMade(db);
  // A connection that ran out of keys would have replayed its first ones: answers, but no creations.
  if (create.payment_intents_made < create.answered) {
    throw new Error(
      `The create measure got ${create.answered} answers but made ${create.payment_intents_made} payment intents: raise CREATIONS_PER_CONNECTION.`,
    );
  }

  // --- cold start ---------------------------------------------------------------------------
  await quiet();
  results.cold_start = await coldStarts({
    paysim: (d) => [join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(d, "p.db")],
    floor: () => [join(ROOT, "bench/floor.mjs")],
  });
  results.cold_start.ratio = Number((results.cold_start.paysim.median_ms / results.cold_start.floor.median_ms).toFixed(2));

  // --- webhooks -----------------------------------------------------------------------------
  await quiet();
  results.webhooks = await benchWebhooks(dir);
  await quiet();
  results.scheduler = await benchScheduler(dir);
  await quiet();
  results.reset = await benchReset(dir);
  await quiet();
  results.fault_rules = await benchFaultRules(dir);
  await quiet();
  results.instances = await benchInstances();
  results.waits = await benchWaits(dir);

  print(results);
  writeFileSync(join(ROOT, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
}

/** A receiver on 127.0.0.1 recording when each event arrives; `status()` answers each request. */
async function startReceiver(status = () => 200) {
  const arrivals = new Map();
  let waiters = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const code = status(event);
      if (code < 300 && !arrivals.has(event.data.id)) arrivals.set(event.data.id, performance.now());
      res.statusCode = code;
      res.end();
      waiters = waiters.filter((w) => (arrivals.size >= w.count ? (w.resolve(), false) : true));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    arrivals,
    waitFor: (count) => (arrivals.size >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Fires `count` creations with `concurrency` in flight; resolves with each object's send time. */
async function createMany(url, count, concurrency, body, keyPrefix = "wh") {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const sent = new Map();
  let next = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      const i = next++;
      const payload = JSON.stringify(body(i));
      const started = performance.now();
      const req = request(
        `${url}/v1/payment_intents`,
        {
          method: "POST",
          agent,
          headers: { ...jsonHeaders, "idempotency-key": `${keyPrefix}-${process.pid}-${i}`, "content-length": Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            sent.set(JSON.parse(Buffer.concat(chunks).toString("utf8")).id, started);
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  const worker = async () => {
    while (next < count) await one();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return sent;
}

/**
 * Events created by 20 clients at once, each creating its next as soon as the
 * last is answered. Not 50: by Little's law, n requests in flight at r per
 * second wait n / r each, so at 2,000 events/s 50 clients mean 25 ms in the
 * create alone, whatever the server does; 20 is the most that lets 2,000/s and
 * a p50 of 10 ms hold together. Measured after as many events again as a
 * warm-up: right after start the JIT is still compiling the paths every event
 * takes, and the other measures, 10 s each, are mostly past that too.
 */
const WEBHOOK_CREATORS = 20;
/** Rounds of 2,000 events after the warm-up; the median round is reported, like the floor's median of 5. */
const WEBHOOK_ROUNDS = 3;

async function benchWebhooks(dir) {
  const COUNT = 2000;
  const receiver = await startReceiver();
  const server = await startServer(
    [join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(dir, "webhooks.db"), "--secret-key", KEY, "--forward-to", receiver.url],
    { cwd: ROOT, label: "paysim" },
  );
  const round = async (name) => {
    receiver.arrivals.clear();
    const started = performance.now();
    const sent = await createMany(server.url, COUNT, WEBHOOK_CREATORS, (i) => ({ amount: 100 + i }), name);
    await receiver.waitFor(COUNT);
    const elapsed = (Math.max(...receiver.arrivals.values()) - started) / 1000;
    const latencies = [...sent].map(([id, at]) => receiver.arrivals.get(id) - at);
    return {
      deliveries_per_s: Math.round(COUNT / elapsed),
      latency_p50_ms: Number(percentile(latencies, 50).toFixed(1)),
      latency_p99_ms: Number(percentile(latencies, 99).toFixed(1)),
    };
  };
  await round("warm-up");
  const rounds = [];
  for (let i = 0; i < WEBHOOK_ROUNDS; i++) rounds.push(await round(`round-${i}`));
  await stop(server.child);
  await receiver.close();
  const byThroughput = [...rounds].sort((a, b) => a.deliveries_per_s - b.deliveries_per_s);
  return {
    events: COUNT,
    creators: WEBHOOK_CREATORS,
    warm_up_events: COUNT,
    ...byThroughput[Math.floor(WEBHOOK_ROUNDS / 2)],
    rounds,
  };
}

async function benchScheduler(dir) {
  const COUNT = 10_000;
  let failing = true;
  const receiver = await startReceiver(() => (failing ? 500 : 200));
  const server = await startServer(
    [join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(dir, "scheduler.db"), "--secret-key", KEY, "--forward-to", receiver.url],
    { cwd: ROOT, label: "paysim" },
  );
  await createMany(server.url, COUNT, 50, (i) => ({ amount: 100 + i }));
  // Wait until every first attempt has failed and its retry is scheduled.
  for (;;) {
    const events = await httpJson(server.url, "GET", "/v1/events?limit=1&type=payment_intent.created");
    const detail = await httpJson(server.url, "GET", `/v1/events/${events.data[0].id}`);
    if (detail.deliveries[0]?.attempts.length >= 1 && detail.deliveries[0].next_attempt_at) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  failing = false;
  const started = performance.now();
  await httpJson(server.url, "POST", "/v1/sandbox/clock/advance", { seconds: 30 });
  const advanceAnswered = performance.now() - started;
  await receiver.waitFor(COUNT);
  const drained = performance.now() - started;
  await stop(server.child);
  await receiver.close();
  return { due_retries: COUNT, advance_answered_ms: Math.round(advanceAnswered), drained_ms: Math.round(drained) };
}

/**
 * One `POST /v1/sandbox/reset`, timed from the client, on a file database holding 10,000 payment
 * intents with their events, deliveries and attempts: the price of a reset before every test.
 * `BENCH_ONLY=reset` runs this measure alone.
 */
async function benchReset(dir) {
  const COUNT = 10_000;
  const receiver = await startReceiver();
  const server = await startServer(
    [join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(dir, "reset.db"), "--secret-key", KEY, "--forward-to", receiver.url],
    { cwd: ROOT, label: "paysim" },
  );
  await createMany(server.url, COUNT, 50, (i) => ({ amount: 100 + i }), "reset");
  await receiver.waitFor(COUNT);
  const started = performance.now();
  const answer = await httpJson(server.url, "POST", "/v1/sandbox/reset");
  const resetMs = performance.now() - started;
  await stop(server.child);
  await receiver.close();
  // A reset that deleted less than was made measured something else.
  if (answer.deleted?.payment_intents !== COUNT)
    throw new Error(`The reset measure deleted ${JSON.stringify(answer.deleted ?? answer)}, not ${COUNT} payment intents.`);
  return { objects: COUNT, deleted: answer.deleted, reset_ms: Math.round(resetMs) };
}

/**
 * Read by id while the company holds the most fault rules it may (100), none of which hits the
 * read (50 on other paths and methods, 50 on its path with probability 0), against the same read
 * with no rule, alternately in three pairs on one server: what a company's rules cost the requests
 * they do not hit. `BENCH_ONLY=faults` runs this measure alone.
 */
async function benchFaultRules(dir) {
  const RULES = 100;
  const server = await startServer([join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(dir, "faults.db"), "--secret-key", KEY], {
    cwd: ROOT,
    label: "paysim",
  });
  const seed = await httpJson(server.url, "POST", "/v1/payment_intents", { amount: 1000 }, { "idempotency-key": "faults-seed" });
  const read = async () => {
    await quiet();
    const run = summary(await cannon({ url: `${server.url}/v1/payment_intents/${seed.id}`, headers: jsonHeaders }));
    if (run.non_2xx > 0 || run.errors > 0) throw new Error(`The fault-rules measure got ${run.non_2xx} non-2xx answers and ${run.errors} errors.`);
    return run;
  };
  const runs = { without: [], with: [] };
  for (let pair = 0; pair < 3; pair++) {
    runs.without.push(await read());
    for (let i = 0; i < RULES / 2; i++)
      await httpJson(server.url, "POST", "/v1/sandbox/faults", { fault: "server_error", match: { method: "DELETE", path: `/v1/payouts/*/rule${i}` } });
    for (let i = 0; i < RULES / 2; i++)
      await httpJson(server.url, "POST", "/v1/sandbox/faults", { fault: "server_error", match: { path: "/v1/payment_intents/*" }, probability: 0, seed: i });
    const held = (await httpJson(server.url, "GET", "/v1/sandbox/faults")).data.length;
    if (held !== RULES) throw new Error(`The fault-rules measure holds ${held} rules, not ${RULES}.`);
    runs.with.push(await read());
    await httpJson(server.url, "DELETE", "/v1/sandbox/faults");
  }
  await stop(server.child);
  return {
    rules: RULES,
    without_rules: medianRun(runs.without),
    with_rules: medianRun(runs.with),
    runs_req_per_s: { without: runs.without.map((r) => r.req_per_s), with: runs.with.map((r) => r.req_per_s) },
  };
}

/**
 * Instances (POST /v1/sandbox/instances): the time from sending the creation to the new instance's
 * first answer (its /health), one at a time, against the same for startPaysim() in this process
 * once warm (the target); then 64 at once, and what they add to the server's RSS.
 * `BENCH_ONLY=instances` runs this measure alone.
 */
async function benchInstances() {
  const ROUNDS = 30;
  const LIMIT = 64;
  const { startPaysim } = await import("../dist/index.js");
  const inProcess = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const started = performance.now();
    const paysim = await startPaysim();
    await (await fetch(`${paysim.url}/health`)).text();
    if (i > 0) inProcess.push(performance.now() - started); // the first one loads the code
    await paysim.close();
  }
  const server = await startServer([join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", ":memory:", "--secret-key", KEY], {
    cwd: ROOT,
    label: "paysim",
  });
  await firstHealth(server.url);
  const createOne = async (i) => {
    const started = performance.now();
    const instance = await httpJson(server.url, "POST", "/v1/sandbox/instances", {}, { "idempotency-key": `instance-${i}` });
    if (instance.object !== "instance") throw new Error(`The instances measure was refused: ${JSON.stringify(instance)}`);
    await (await fetch(`${instance.url}/health`)).text();
    return { instance, ms: performance.now() - started };
  };
  const usable = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const { instance, ms } = await createOne(`one-${i}`);
    if (i > 0) usable.push(ms);
    await httpJson(server.url, "DELETE", `/v1/sandbox/instances/${instance.id}`);
  }
  const rssBefore = rssMb(server.child.pid);
  const started = performance.now();
  const all = await Promise.all(Array.from({ length: LIMIT }, (_, i) => createOne(`all-${i}`)));
  const allMs = performance.now() - started;
  // Each one used once, as a test worker would, before the memory is read.
  await Promise.all(
    all.map(({ instance }) =>
      fetch(`${instance.url}/v1/payment_intents`, {
        method: "POST",
        headers: { authorization: `Bearer ${instance.secret_key}`, "content-type": "application/json", "idempotency-key": "one" },
        body: CREATION_BODY,
      }).then((r) => r.text()),
    ),
  );
  const rssAfter = rssMb(server.child.pid);
  await stop(server.child);
  return {
    rounds: ROUNDS,
    start_paysim_warm_ms: { median: Number(median(inProcess).toFixed(1)), p95: Number(percentile(inProcess, 95).toFixed(1)) },
    instance_usable_ms: { median: Number(median(usable).toFixed(1)), p95: Number(percentile(usable, 95).toFixed(1)) },
    all_64_at_once_ms: Math.round(allMs),
    rss_mb: { without_instances: rssBefore, with_64: rssAfter, per_instance: Number(((rssAfter - rssBefore) / LIMIT).toFixed(1)) },
  };
}

function printInstances(x) {
  console.log(
    `instances                usable ${x.instance_usable_ms.median} ms after POST (p95 ${x.instance_usable_ms.p95}), startPaysim() warm + /health ${x.start_paysim_warm_ms.median} ms (p95 ${x.start_paysim_warm_ms.p95}), ` +
      `${x.rounds} rounds; 64 at once in ${x.all_64_at_once_ms} ms; RSS ${x.rss_mb.without_instances} MB → ${x.rss_mb.with_64} MB with 64 (${x.rss_mb.per_instance} MB each)\n`,
  );
}

/** The CPU time (user + system, ms) a process has used so far. */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/** Resolves once the process has used no CPU for `quietMs`: it has read and handled everything sent to it. */
async function settled(pid, quietMs = 300) {
  let last = cpuMs(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = cpuMs(pid);
    if (now === last) return;
    last = now;
  }
}

/** A paysim for the waits measure, past its first request, and its RSS once quiet. */
async function quietPaysim(dir, name) {
  const server = await startServer([join(ROOT, "bin/paysim.js"), "start", "--no-ui", "--port", "0", "--db", join(dir, `${name}.db`), "--secret-key", KEY], {
    cwd: ROOT,
    label: "paysim",
  });
  await firstHealth(server.url);
  // One wait first, so that what a first request loads is not counted as the held requests' cost.
  await httpJson(server.url, "GET", "/v1/sandbox/events/wait?type=payout.created&timeout_ms=1");
  await settled(server.child.pid);
  return { server, idleMb: rssMb(server.child.pid) };
}

/** `count` GETs of `path` sent at once, each on its own connection: their answers (status 0 for a closed connection). */
function heldGets(url, path, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const answers = Array.from(
    { length: count },
    () =>
      new Promise((resolve) => {
        const req = request(`${url}${path}`, { agent, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode, body: body === "" ? {} : JSON.parse(body), at: performance.now() }));
        });
        req.on("error", () => resolve({ status: 0, body: {}, at: performance.now() }));
        req.end();
      }),
  );
  return { answers, agent };
}

/**
 * 1,000 HTTP waits held at once (GET /v1/sandbox/events/wait, each on its own connection) by one
 * paysim: its RSS idle, with them held, and after one payment intent has answered them all; the
 * time to take them in (until paysim's CPU goes quiet), and from that creation to the last answer.
 * The reference, on a paysim of its own: as many requests held open by a `timeout` fault rule,
 * which holds a connection and nothing else. `BENCH_ONLY=waits` runs this measure alone.
 */
async function benchWaits(dir) {
  const WAITS = 1_000;
  const reference = await quietPaysim(dir, "waits-reference");
  await httpJson(reference.server.url, "POST", "/v1/sandbox/faults", { fault: "timeout", latency_ms: 60_000, times: WAITS, match: { path: "/v1/payouts" } });
  const faulted = heldGets(reference.server.url, "/v1/payouts", WAITS);
  await settled(reference.server.child.pid);
  const faultHeldMb = rssMb(reference.server.child.pid);
  faulted.agent.destroy();
  await stop(reference.server.child);

  const { server, idleMb } = await quietPaysim(dir, "waits");
  const sent = performance.now();
  const { answers, agent } = heldGets(server.url, "/v1/sandbox/events/wait?type=payment_intent.created&timeout_ms=60000", WAITS);
  await settled(server.child.pid);
  const heldMs = performance.now() - sent - 300;
  const heldMb = rssMb(server.child.pid);
  const created = performance.now();
  const intent = await httpJson(server.url, "POST", "/v1/payment_intents", { amount: 1000 }, { "idempotency-key": "waits" });
  const answered = await Promise.all(answers);
  const lastAnswerMs = Math.max(...answered.map((a) => a.at)) - created;
  const wrong = answered.filter((a) => a.status !== 200 || a.body.data?.id !== intent.id).length;
  if (wrong > 0) throw new Error(`The waits measure got ${wrong} wrong answers out of ${WAITS}.`);
  await settled(server.child.pid);
  const afterMb = rssMb(server.child.pid);
  agent.destroy();
  await stop(server.child);
  return {
    waits: WAITS,
    rss_idle_mb: idleMb,
    rss_held_mb: heldMb,
    rss_after_mb: afterMb,
    reference_rss_idle_mb: reference.idleMb,
    reference_rss_fault_held_mb: faultHeldMb,
    take_in_ms: Math.round(heldMs),
    last_answer_after_create_ms: Math.round(lastAnswerMs),
  };
}

function printWaits(w) {
  console.log(
    `waits                    ${w.waits} HTTP waits held: RSS ${w.rss_idle_mb} MB idle, ${w.rss_held_mb} MB holding them (reference: ${w.reference_rss_idle_mb} MB idle, ${w.reference_rss_fault_held_mb} MB holding as many requests by a timeout fault), ${w.rss_after_mb} MB once answered; ` +
      `taken in within ${w.take_in_ms} ms, all ${w.waits} answered ${w.last_answer_after_create_ms} ms after the creation that matched them\n`,
  );
}

function printFaultRules(f) {
  console.log(
    `fault rules              read by id ${f.with_rules.req_per_s} req/s (p50 ${f.with_rules.p50_ms} ms, p99 ${f.with_rules.p99_ms} ms) with ${f.rules} rules that never hit it, ` +
      `${f.without_rules.req_per_s} req/s (p50 ${f.without_rules.p50_ms} ms, p99 ${f.without_rules.p99_ms} ms) with none (pairs: ${f.runs_req_per_s.with.join(", ")} / ${f.runs_req_per_s.without.join(", ")})\n`,
  );
}

function print(r) {
  const t = r.throughput;
  const row = (name, x) =>
    `${name.padEnd(24)} ${String(x.req_per_s).padStart(7)} req/s  p50 ${String(x.p50_ms).padStart(4)} ms  p99 ${String(x.p99_ms).padStart(4)} ms` +
    (x.ratio_to_floor === undefined ? `  (median of ${x.runs_req_per_s.join(", ")})` : `  ×${x.ratio_to_floor} of the floor around it (${x.floor_req_per_s})`);
  console.log(`\npaysim benchmark ${r.date} (Node ${r.node}, ${r.connections} connections, ${r.duration_s} s each)\n`);
  console.log(row("floor GET", t.floor_get));
  console.log(row("create payment intent", t.create_payment_intent));
  console.log(row("  one-row reference", t.create_references.one_row));
  console.log(row("  paysim-rows reference", t.create_references.paysim_rows));
  console.log(row("read by id", t.read_by_id));
  console.log(row("list (limit=10)", t.list_limit_10));
  console.log(row("idempotent replay", t.idempotent_replay));
  console.log(`\ncold start               paysim ${r.cold_start.paysim.median_ms} ms, floor ${r.cold_start.floor.median_ms} ms (×${r.cold_start.ratio})`);
  console.log(`RSS                      idle ${r.rss_idle_mb} MB, after load ${r.rss_after_load_mb} MB`);
  console.log(
    `webhooks                 ${r.webhooks.deliveries_per_s} deliveries/s, p50 ${r.webhooks.latency_p50_ms} ms, p99 ${r.webhooks.latency_p99_ms} ms (median of ${r.webhooks.rounds.length} rounds of ${r.webhooks.events} events from ${r.webhooks.creators} clients, after ${r.webhooks.warm_up_events} to warm up: ${r.webhooks.rounds.map((x) => x.deliveries_per_s).join(", ")}/s)`,
  );
  console.log(
    `scheduler                ${r.scheduler.due_retries} due retries drained in ${r.scheduler.drained_ms} ms (advance answered in ${r.scheduler.advance_answered_ms} ms)\n`,
  );
  if (r.reset) printReset(r.reset);
  if (r.fault_rules) printFaultRules(r.fault_rules);
  if (r.instances) printInstances(r.instances);
  if (r.waits) printWaits(r.waits);
}

function printReset(reset) {
  console.log(
    `reset                    one reset of ${reset.objects} payment intents (with ${reset.deleted.events} events, their deliveries and attempts) answered in ${reset.reset_ms} ms\n`,
  );
}

if (process.env.BENCH_ONLY === "reset") {
  const dir = temporaryDirectory("paysim-bench-");
  printReset(await benchReset(dir));
} else if (process.env.BENCH_ONLY === "waits") {
  const dir = temporaryDirectory("paysim-bench-");
  printWaits(await benchWaits(dir));
} else if (process.env.BENCH_ONLY === "faults") {
  const dir = temporaryDirectory("paysim-bench-");
  printFaultRules(await benchFaultRules(dir));
} else if (process.env.BENCH_ONLY === "instances") {
  printInstances(await benchInstances());
} else {
  await main();
}
