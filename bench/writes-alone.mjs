#!/usr/bin/env node
// What the writes of one durable creation cost with no HTTP at all: the create references'
// writes (bench/creation-writes.mjs), run back to back on one thread in groups of 50, each group
// committed as one, as paysim's group commit does for 50 connections. Not part of `npm run bench`;
// run it after `npm run build`:
//
//   node bench/writes-alone.mjs one-row | paysim-rows
//
// The first third of the creations warm up (the JIT, the database's first pages) and are not
// counted. The statements (with the row building around them) and the COMMITs are timed apart, in
// CPU time and in the thread's elapsed time: a COMMIT that runs a checkpoint waits for its fsync,
// and paysim's thread, which runs its COMMITs, waits with it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CREATION_WRITES, modeFromArgs } from "./creation-writes.mjs";

const CREATIONS = 30_000;
const GROUP = 50;
const WARM_UP = CREATIONS / 3;
const BODY = { amount: 1000, description: "bench" };

const mode = modeFromArgs("writes-alone.mjs");
const dir = mkdtempSync(join(tmpdir(), "paysim-bench-writes-"));
try {
  const { db, group, write } = CREATION_WRITES[mode](join(dir, "writes.db"));
  /** CPU time of this process (user + system: the pwrite calls of a COMMIT are system time) and elapsed time, in µs. */
  const now = () => {
    const { user, system } = process.cpuUsage();
    return { cpu: user + system, elapsed: performance.now() * 1000 };
  };
  const spent = { statements: { cpu: 0, elapsed: 0 }, commit: { cpu: 0, elapsed: 0 } };
  const add = (into, from, to) => {
    into.cpu += to.cpu - from.cpu;
    into.elapsed += to.elapsed - from.elapsed;
  };
  for (let made = 0; made < CREATIONS; made += GROUP) {
    const started = now();
    for (let i = 0; i < GROUP; i++) group.unit(() => write(BODY));
    const written = now();
    group.flush();
    const committed = now();
    if (made >= WARM_UP) {
      add(spent.statements, started, written);
      add(spent.commit, written, committed);
    }
  }
  db.close();
  const counted = CREATIONS - WARM_UP;
  const perCreation = (us) => (us / counted).toFixed(1);
  const line = (kind) => {
    const total = spent.statements[kind] + spent.commit[kind];
    return `${perCreation(total)} µs (statements and row building ${perCreation(spent.statements[kind])}, COMMIT ${perCreation(spent.commit[kind])})`;
  };
  const elapsedPerCreation = (spent.statements.elapsed + spent.commit.elapsed) / counted;
  console.log(`${mode}: ${counted} creations in groups of ${GROUP}, after ${WARM_UP} to warm up`);
  console.log(`  CPU per creation      ${line("cpu")}`);
  console.log(`  elapsed per creation  ${line("elapsed")}`);
  console.log(`  one thread doing nothing else could make at most ${Math.floor(1e6 / elapsedPerCreation)} creations a second`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
