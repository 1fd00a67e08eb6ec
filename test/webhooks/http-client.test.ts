import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { createWebhookClient, RESPONSE_HEAD_BYTES, type WebhookClient } from "../../src/webhooks/http-client.js";
import { defer, useReceiver } from "../helpers/disposables.js";
import type { Receiver } from "../helpers/receiver.js";

/** The webhook client against real receivers on 127.0.0.1: when an answer counts, and what it keeps. */

let client: WebhookClient | undefined;
let receiver: Receiver | undefined;

/** `createWebhookClient`, closed when the test finishes. */
function useClient(): WebhookClient {
  const made = createWebhookClient();
  defer(() => made.close());
  return made;
}

const never = new AbortController().signal;
const post = (url: string, timeoutMs = 5000, stop = never) => client!.post(url, '{"id":"evt_1"}', { "Content-Type": "application/json" }, timeoutMs, stop);

/** A TCP server that writes `answer` to every connection, then does `then` with it. */
async function rawReceiver(answer: string, then: "end" | "destroy"): Promise<string> {
  const raw: Server = createServer((socket) => {
    socket.once("data", () => {
      socket.write(answer);
      if (then === "end") socket.end();
      else socket.destroy();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  defer(() => new Promise<void>((resolve) => raw.close(() => resolve())));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}/hooks`;
}

describe("the webhook client", () => {
  it("counts an answer once its whole body has arrived: keeps the first 1 KiB, discards the rest, and reuses the connection", async () => {
    receiver = await useReceiver({ status: 200, bodyBytes: 1_000_000 });
    client = useClient();
    const first = await post(receiver.url);
    expect(first).toEqual({ statusCode: 200, error: null, responseHead: Buffer.alloc(RESPONSE_HEAD_BYTES, "a") });
    const second = await post(receiver.url);
    expect(second.statusCode).toBe(200);
    // The body was read to its end, so the one connection served both attempts.
    expect(client.retained()).toEqual({ urls: 0, origins: 1, connections: 1 });
  });

  it("times out an answer whose body never ends, and closes its connection instead of pooling it", async () => {
    receiver = await useReceiver("unfinished-body");
    client = useClient();
    expect(await post(receiver.url, 300)).toEqual({ statusCode: null, error: "timeout: no response within 300 ms", responseHead: Buffer.alloc(0) });
    await vi.waitFor(() => expect(client!.retained()).toEqual({ urls: 0, origins: 0, connections: 0 }));
    await vi.waitFor(() => expect(receiver!.unfinishedCount()).toBe(0));
  });

  it("records an answer cut off mid-body as a connection reset, not as delivered", async () => {
    const url = await rawReceiver("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part", "destroy");
    client = useClient();
    expect(await post(url)).toEqual({ statusCode: null, error: "connection reset", responseHead: Buffer.alloc(0) });
  });

  it("counts a whole answer whose connection then closes (no Content-Length: the body ends with the connection)", async () => {
    const url = await rawReceiver("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", "end");
    client = useClient();
    expect(await post(url)).toEqual({ statusCode: 204, error: null, responseHead: Buffer.alloc(0) });
    const closeDelimited = await rawReceiver("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nthanks", "end");
    expect(await post(closeDelimited)).toEqual({ statusCode: 200, error: null, responseHead: Buffer.from("thanks") });
  });

  it("rejects an attempt paysim stops, closing its connection", async () => {
    receiver = await useReceiver("unfinished-body");
    client = useClient();
    const stop = new AbortController();
    const attempt = post(receiver.url, 60_000, stop.signal);
    await receiver.waitForRequests(1);
    stop.abort();
    await expect(attempt).rejects.toThrow("paysim is stopping");
    await vi.waitFor(() => expect(client!.retained()).toEqual({ urls: 0, origins: 0, connections: 0 }));
  });
});
