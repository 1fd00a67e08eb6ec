#!/usr/bin/env node
// References for the create measure of `npm run bench`: how fast a durable creation can be on this
// stack at all. A bare Hono app on @hono/node-server, like the floor, whose POST /create makes the
// writes of one creation (bench/creation-writes.mjs) and answers 201 once the group that holds
// them has committed, as paysim does.
//
//   node bench/durable-create.mjs one-row | paysim-rows
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CREATION_WRITES, modeFromArgs } from "./creation-writes.mjs";

const mode = modeFromArgs("durable-create.mjs");
const dir = mkdtempSync(join(tmpdir(), "paysim-bench-reference-"));
const { db, group, write } = CREATION_WRITES[mode](join(dir, "reference.db"));

const app = new Hono();
app.post("/create", async (c) => {
  const input = await c.req.json();
  const { result, committed } = group.unit(() => write(input));
  await committed;
  return c.body(result, 201, { "Content-Type": "application/json" });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`${mode} reference listening on http://127.0.0.1:${info.port}`);
});
process.on("SIGTERM", () => {
  server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
