// receiver.mjs: a webhook receiver with Node's http and crypto, no framework.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const SECRET = process.env.WEBHOOK_SECRET; // the endpoint's signing secret, whsec_…
if (!SECRET?.startsWith("whsec_")) throw new Error("Set WEBHOOK_SECRET to the endpoint's whsec_… secret.");
const TOLERANCE_SECONDS = 5 * 60;

const processed = new Set(); // ids of the events handled (keep them in your database)
const known = new Map(); // object id → the step of the furthest state acted on

// Where each state stands in its object's state machine. Order an object's events by these
// steps, never by time: an automatic capture authorizes and captures in the same millisecond.
// The last step holds the final states, which nothing undoes.
const STEPS = {
  payment_intent: { created: 0, authorized: 1, captured: 2, canceled: 2, failed: 2 },
  payout: { pending: 0, processing: 1, succeeded: 2, failed: 3, returned: 3, reversed: 3, partially_reversed: 3 },
};

/** Whether `header` signs the raw body with SECRET, less than 5 minutes ago. */
function verified(rawBody, header) {
  if (typeof header !== "string") return false;
  let t;
  const signatures = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=");
    if (key === "t") t = value;
    if (key === "v1") signatures.push(Buffer.from(value ?? "", "hex"));
  }
  if (!/^\d+$/.test(t ?? "") || Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", SECRET).update(`${t}.`).update(rawBody).digest();
  // A signature that is not 32 bytes of hex is simply not a match.
  return signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}

function handle(event) {
  const object = event.data;
  const kind = event.type.split(".")[0]; // "payment_intent" or "payout"
  const step = STEPS[kind]?.[object.state ?? object.status]; // the state the event carries
  // Events arrive out of order: one whose state does not come after the known one is stale.
  if (step !== undefined && step <= (known.get(object.id) ?? -1)) return;
  if (step !== undefined) known.set(object.id, step);
  // … act on event.type here, quickly (slow work goes to a queue): e.g. fulfil the order
  // on payment_intent.captured.
  console.log(`acted on ${event.type} ${object.id}`);
}

createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const rawBody = Buffer.concat(chunks); // verify these bytes, not re-serialised JSON
    if (!verified(rawBody, req.headers["service-signature"])) {
      res.writeHead(400).end("invalid signature"); // 4xx: a retry would never verify either
      return;
    }
    const event = JSON.parse(rawBody.toString("utf8"));
    if (!processed.has(event.id)) {
      processed.add(event.id);
      handle(event);
    }
    res.writeHead(200).end("ok"); // a repeat is answered as the first delivery was
  });
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1", function () {
  console.log(`listening on http://127.0.0.1:${this.address().port}/webhooks`);
});
