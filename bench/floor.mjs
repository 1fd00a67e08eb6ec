// The floor of our own stack: a bare Hono app on @hono/node-server answering a small JSON object.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/health", (c) => c.json({ status: "ok" }));
app.get("/floor", (c) => c.json({ id: "floor", object: "floor", ok: true }));
// What a POST with a small JSON body costs this stack: bench/ab.mjs's floor for a flow of three.
app.post("/floor", async (c) => c.json({ id: "floor", object: "floor", received: await c.req.json() }));
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`floor listening on http://127.0.0.1:${info.port}`);
});
