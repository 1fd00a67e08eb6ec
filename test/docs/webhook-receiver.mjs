// receiver.mjs: a webhook receiver with Node's http and crypto, no framework.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const SECRET = process.env.WEBHOOK_SECRET; // the endpoint's signing secret, whsec_…
if (!SECRET?.startsWith("whsec_")) throw new Error("Set WEBHOOK_SECRET to the endpoint's whsec_… secret.");
const TOLERANCE_SECONDS = 5 * 60;

const processed = new Set(); // ids of the events handled (keep them in your database)
const newest = new Map(); // object id → updated_at of the newest version seen

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
  // Events can arrive out of order: one older than what is known must not undo it.
  if ((newest.get(object.id) ?? "") >= object.updated_at) return;
  newest.set(object.id, object.updated_at);
  // … act on event.type here, quickly (slow work goes to a queue): e.g. fulfil the order
  // on payment_intent.captured.
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
