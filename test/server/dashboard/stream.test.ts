import { describe, expect, it } from "vitest";
import { defer, usePaysimApp } from "../../helpers/disposables.js";
import { createIntent, type TestPaysim } from "../../helpers/paysim.js";
import { csrfOf, DashboardClient, signedIn } from "./helpers.js";

const ACME_KEY = "sk_test_stream_acme_0001";
const GLOBEX_KEY = "sk_test_stream_globex_0001";

/** A server-sent event stream read as text; released when the test finishes. */
function streamText(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  defer(() => reader.cancel());
  const decoder = new TextDecoder();
  let text = "";
  return {
    /** Reads on until `done` says the text so far is enough, and answers all of it. */
    async until(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    /** Reads until the server ends the stream, and answers all of it. */
    end(): Promise<string> {
      return this.until(() => false);
    },
  };
}

/** The open events stream of a signed-in client, read up to its first line. */
async function openStream(paysim: TestPaysim, client: DashboardClient) {
  const response = await paysim.app.request(client.url("/events/stream"), { headers: { cookie: client.cookie! } });
  expect(response.status).toBe(200);
  const stream = streamText(response.body!);
  await stream.until((text) => text.includes(": connected"));
  return stream;
}

describe("the events stream", () => {
  it("sends the signed-in company's new events as table rows, and never another company's", async () => {
    const paysim = await usePaysimApp({
      config: {
        companies: [
          { name: "Acme", currency: "EUR", secret_key: ACME_KEY, webhook_endpoints: [] },
          { name: "Globex", currency: "USD", secret_key: GLOBEX_KEY, webhook_endpoints: [] },
        ],
      },
    });
    const client = await signedIn(paysim);
    const response = await paysim.app.request(client.url("/events/stream"), { headers: { cookie: client.cookie! } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = streamText(response.body!);
    await stream.until((text) => text.includes(": connected"));
    const foreign = await createIntent(paysim, { amount: 100 }, GLOBEX_KEY);
    const own = await createIntent(paysim, { amount: 200 }, ACME_KEY);
    const text = await stream.until((t) => t.includes(own.id));
    expect(text).toContain("event: event");
    expect(text).toContain(`href="${client.base}/payment_intents/${own.id}"`);
    expect(text).not.toContain(foreign.id);
  });

  it("ends at once when its session signs out, while another session's stream goes on", async () => {
    const paysim = await usePaysimApp({ secretKey: ACME_KEY });
    const leaving = await signedIn(paysim);
    const staying = await signedIn(paysim);
    const [ending, going] = [await openStream(paysim, leaving), await openStream(paysim, staying)];
    expect((await leaving.post("/logout", { csrf: csrfOf((await leaving.get("/events")).html) })).status).toBe(303);
    // The stream closes on the sign-out itself, not at the company's next event (there is none here).
    expect(await ending.end()).toBe(": connected\n\n");
    const intent = await createIntent(paysim, { amount: 300 }, ACME_KEY);
    await expect(going.until((text) => text.includes(intent.id))).resolves.toContain("event: event");
  });

  it("needs the session's cookie, not only its address", async () => {
    const paysim = await usePaysimApp();
    const client = await signedIn(paysim);
    const answer = await new DashboardClient(paysim).get(`${client.base}/events/stream`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/login");
  });
});

describe("oversized forms", () => {
  it("a form larger than any dashboard form is refused with a 413 page, changing nothing", async () => {
    const paysim = await usePaysimApp();
    const client = await signedIn(paysim);
    const csrf = csrfOf((await client.get("/events")).html);
    const answer = await client.post("/webhook_endpoints", { csrf, url: `http://127.0.0.1:9/${"x".repeat(20_000)}` });
    expect(answer.status).toBe(413);
    expect((await paysim.api("GET", "/v1/webhook_endpoints")).body.data).toHaveLength(0);
  });
});
