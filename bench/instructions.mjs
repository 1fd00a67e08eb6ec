#!/usr/bin/env node
// node bench/instructions.mjs <build> [<build>...]: the instructions a built paysim server executes
// per creation, per read by id and per idempotent replay (the first creation sent again under its
// key), counted by valgrind's callgrind in the server process only (all its threads), so that
// builds can be compared on a machine shared with other work, where CPU time per request swings by
// a tenth between runs and an instruction count does not (docs/performance.md, "Instructions per
// request"). Not part of npm test or npm run bench: needs valgrind, and numbers
// are recorded, never asserted. Each <build> is a checkout with `npm run build` done.
//
// INSTR_WARM     creations, then reads, served before counting, so the JIT has settled (default 2000)
// INSTR_COUNTED  creations, then reads, counted (default 1000)
// INSTR_KEEP     a folder to copy callgrind's files of the counted phases to, for callgrind_annotate
//                (<build's folder name>.creations.out, .reads.out); JIT-compiled code shows as addresses
// INSTR_CLIENTS  clients, each on its own kept-alive connection sending its next request when its
//                last is answered (default 1: every creation then commits alone, so the count does
//                not depend on how requests fall into group commits; more share commits, as under load)
import { startServer, stop, temporaryDirectory, paysimArgs, send } from "./processes.mjs";
import { execFile } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { Agent } from "node:http";
import { basename, join, resolve } from "node:path";

const WARM = Number(process.env.INSTR_WARM ?? 2000);
const COUNTED = Number(process.env.INSTR_COUNTED ?? 1000);
const CLIENTS = Number(process.env.INSTR_CLIENTS ?? 1);
const builds = process.argv.slice(2).map((build) => resolve(build));
if (builds.length === 0) {
  console.error("usage: node bench/instructions.mjs <built checkout> [<built checkout>...]");
  process.exit(2);
}

/**
 * Asks callgrind to write what it has counted since the last dump (and start again from zero).
 * valgrind takes the command when the server next runs, so the server is sent /health until
 * the command is done: a fraction of one /health lands in the counted phase.
 */
async function dump(pid, agent, url) {
  let done = false;
  const command = new Promise((resolveDump, reject) =>
    execFile("callgrind_control", ["--dump", String(pid)], (error) => {
      done = true;
      if (error) reject(error);
      else resolveDump();
    }),
  );
  while (!done) {
    await Promise.race([command, new Promise((r) => setTimeout(r, 500))]);
    if (!done) await send(agent, url, "GET", "/health");
  }
  await command;
}

/** Instructions in dump file `file` (its totals line). */
function instructionsIn(file) {
  const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(file, "utf8"));
  if (!totals) throw new Error(`no totals in ${file}`);
  return Number(totals[1]);
}

/** `step(agent)` `times` times in all, spread over CLIENTS clients that each wait for their last answer. */
async function served(url, times, step) {
  const agents = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  await Promise.all(
    agents.map(async (agent, client) => {
      for (let i = client; i < times; i += CLIENTS) await step(agent);
    }),
  );
  for (const agent of agents) agent.destroy();
}

let keys = 0;
const create = (agent, url) => send(agent, url, "POST", "/v1/payment_intents", '{"amount":1000}', { "idempotency-key": `instr-${keys++}` });

async function measure(root) {
  const dir = temporaryDirectory("paysim-instr-");
  const out = join(dir, "callgrind.out");
  const server = await startServer(
    [
      "--tool=callgrind",
      `--callgrind-out-file=${out}`,
      "--dump-line=no",
      `--log-file=${join(dir, "valgrind.log")}`,
      process.execPath,
      ...paysimArgs(root, dir),
    ],
    { cwd: root, command: "valgrind", env: { NODE_DISABLE_COMPILE_CACHE: "1" } },
  );
  const { pid } = server.child;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const seedKey = `instr-${keys}`;
  const seed = await create(agent, server.url);
  const creations = (times) => served(server.url, times, (client) => create(client, server.url));
  const reads = (times) => served(server.url, times, (client) => send(client, server.url, "GET", `/v1/payment_intents/${seed.id}`));
  const replays = (times) =>
    served(server.url, times, (client) => send(client, server.url, "POST", "/v1/payment_intents", '{"amount":1000}', { "idempotency-key": seedKey }));
  await creations(WARM);
  await reads(WARM);
  await replays(WARM);
  await dump(pid, agent, server.url); // out.1: the start and the warm-up
  await creations(COUNTED);
  await dump(pid, agent, server.url); // out.2: the creations
  await reads(COUNTED);
  await dump(pid, agent, server.url); // out.3: the reads
  await replays(COUNTED);
  await dump(pid, agent, server.url); // out.4: the replays
  agent.destroy();
  await stop(server.child);
  if (process.env.INSTR_KEEP) {
    copyFileSync(`${out}.2`, join(process.env.INSTR_KEEP, `${basename(root)}.creations.out`));
    copyFileSync(`${out}.3`, join(process.env.INSTR_KEEP, `${basename(root)}.reads.out`));
  }
  return { create: instructionsIn(`${out}.2`) / COUNTED, read: instructionsIn(`${out}.3`) / COUNTED, replay: instructionsIn(`${out}.4`) / COUNTED };
}

const results = [];
for (const root of builds) {
  const result = await measure(root);
  results.push({ build: root, ...result });
  const count = (n) => Math.round(n).toLocaleString("en");
  console.log(`${root}: creation ${count(result.create)} instructions, read ${count(result.read)}, replay ${count(result.replay)}`);
}
if (results.length > 1) {
  const [first] = results;
  for (const { build, create: c, read: r, replay: p } of results.slice(1))
    console.log(
      `${results[0].build} / ${build}: creation ×${(first.create / c).toFixed(3)}, read ×${(first.read / r).toFixed(3)}, replay ×${(first.replay / p).toFixed(3)} (the first build's instructions over this one's: above 1, this one runs fewer)`,
    );
}
