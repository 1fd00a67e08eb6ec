// The HTTP clients Node users retry with, configured as their docs recommend, against a real
// paysim on 127.0.0.1: each gets through the faults with one payment and no finding, and each
// mistake the library invites raises exactly the finding that names it, with the request ids the
// client saw (docs/testing.md, "What real clients do").
import { randomUUID } from "node:crypto";
import axios, { type AxiosError } from "axios";
import axiosRetry from "axios-retry";
import got, { type Method } from "got";
import ky from "ky";
import pRetry, { AbortError } from "p-retry";
import { Agent, RetryAgent, request, type Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";
import {
  EVERY_FAULT,
  ORDER,
  expectNewKeyOnRetry,
  expectNoFinding,
  expectRetriedClientError,
  expectRetryAfterIgnored,
  failNextCreations,
  findingsOf,
  paymentIntents,
} from "./support.js";

let paysim: TestPaysim;
beforeEach(async () => {
  paysim = await startTestPaysim({ db: ":memory:" });
});
afterEach(() => paysim.dispose());

const creations = () => `${paysim.url}/v1/payment_intents`;
const auth = () => ({ authorization: `Bearer ${paysim.secretKey}` });

describe("undici's RetryAgent", () => {
  // POST is not in its default methods; a creation with an Idempotency-Key is safe to add.
  const methods = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE", "POST"];
  const create = async (dispatcher: Dispatcher, headers: Record<string, string>) => {
    const answer = await request(creations(), {
      dispatcher,
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", ...headers },
      body: JSON.stringify(ORDER),
    });
    await answer.body.dump();
    return { status: answer.statusCode, requestId: answer.headers["request-id"] as string };
  };

  it("with POST added to its methods and one key per creation: through a 500, a 429 and a lost answer, one payment, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const agent = new RetryAgent(new Agent(), { methods, minTimeout: 10 });
    expect(await create(agent, { "idempotency-key": randomUUID() })).toMatchObject({ status: 201 });
    await agent.close();
    await expectNoFinding(paysim);
  });

  it("under an agent whose interceptor stamps a key on every dispatch: each retry has a new key, new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "server_error" });
    const stampKey: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: { ...(options.headers as Record<string, string>), "idempotency-key": randomUUID() } }, handler);
    const agent = new RetryAgent(new Agent().compose(stampKey), { methods, minTimeout: 10 });
    const created = await create(agent, {});
    expect(created.status).toBe(201);
    await agent.close();
    await expectNewKeyOnRetry(paysim, created.requestId, "got 500", 1);
  });

  it("with a maxTimeout below the Retry-After: the wait is cut to maxTimeout, retry_after_ignored", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const agent = new RetryAgent(new Agent(), { methods, minTimeout: 10, maxTimeout: 50 });
    const created = await create(agent, { "idempotency-key": randomUUID() });
    expect(created.status).toBe(201);
    await agent.close();
    await expectRetryAfterIgnored(paysim, created.requestId);
  });
});

describe("got", () => {
  // POST is not in its default retry.methods; the time to the first byte bounds each try (a
  // timeout.request would also cap the Retry-After it waits for).
  const retry = { limit: 3, methods: ["GET", "PUT", "HEAD", "DELETE", "OPTIONS", "TRACE", "POST"] as Method[], backoffLimit: 50 };

  it("with POST in retry.methods and one key per creation: through a 500, a 429, a timeout and a lost answer, one payment, no finding", async () => {
    await failNextCreations(
      paysim,
      { fault: "server_error" },
      { fault: "rate_limited", retry_after_seconds: 1 },
      { fault: "timeout", latency_ms: 60_000 },
      { fault: "lost_response" },
    );
    const created = await got.post(creations(), {
      json: ORDER,
      headers: { ...auth(), "idempotency-key": randomUUID() },
      retry: { ...retry, limit: 4 },
      timeout: { response: 300 },
    });
    expect(created.statusCode).toBe(201);
    await expectNoFinding(paysim);
  });

  it("with a retry.maxRetryAfter below the Retry-After: got gives up on the 429 rather than retry early, no finding", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const attempt = got.post(creations(), { json: ORDER, headers: { ...auth(), "idempotency-key": randomUUID() }, retry: { ...retry, maxRetryAfter: 50 } });
    await expect(attempt).rejects.toMatchObject({ response: { statusCode: 429 } });
    expect((await findingsOf(paysim)).codes).toEqual([]);
    expect(await paymentIntents(paysim)).toBe(0);
  });

  it("with a beforeRequest hook that makes the key: it runs before every retry, new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "lost_response" });
    const client = got.extend({
      hooks: {
        beforeRequest: [
          (options) => {
            options.headers["idempotency-key"] = randomUUID();
          },
        ],
      },
    });
    const created = await client.post(creations(), { json: ORDER, headers: auth(), retry });
    expect(created.statusCode).toBe(201);
    await expectNewKeyOnRetry(paysim, created.headers["request-id"] as string, "got no answer", 2);
  });
});

describe("axios with axios-retry", () => {
  /** Its default condition retries only idempotent methods (and network errors); a keyed creation is safe on a 429 or a 5xx too. */
  const retryCondition = (error: AxiosError) => axiosRetry.isNetworkError(error) || axiosRetry.isRetryableError(error);

  it("with a condition that takes a keyed POST and one key per creation: through a 500, a 429 and a lost answer, one payment, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const client = axios.create();
    axiosRetry(client, { retries: 3, retryCondition, retryDelay: axiosRetry.exponentialDelay });
    const created = await client.post(creations(), ORDER, { headers: { ...auth(), "idempotency-key": randomUUID() } });
    expect(created.status).toBe(201);
    await expectNoFinding(paysim);
  });

  it("with its default condition: a POST is retried after a lost answer, under its key the replay, no finding", async () => {
    await failNextCreations(paysim, { fault: "lost_response" });
    const client = axios.create();
    axiosRetry(client);
    const created = await client.post(creations(), ORDER, { headers: { ...auth(), "idempotency-key": randomUUID() } });
    expect(created.status).toBe(201);
    expect(created.headers["idempotent-replayed"]).toBe("true");
    await expectNoFinding(paysim);
  });

  it("with a request interceptor that makes the key: axios-retry sends the retry through it again, new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "server_error" });
    const client = axios.create();
    client.interceptors.request.use((config) => {
      config.headers.set("Idempotency-Key", randomUUID());
      return config;
    });
    axiosRetry(client, { retries: 3, retryCondition });
    const created = await client.post(creations(), ORDER, { headers: auth() });
    expect(created.status).toBe(201);
    await expectNewKeyOnRetry(paysim, created.headers["request-id"] as string, "got 500", 1);
  });

  it("an interceptor that keeps a key the request already has is correct: the retry reuses it", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const client = axios.create();
    client.interceptors.request.use((config) => {
      if (!config.headers.has("Idempotency-Key")) config.headers.set("Idempotency-Key", randomUUID());
      return config;
    });
    axiosRetry(client, { retries: 3, retryCondition });
    expect((await client.post(creations(), ORDER, { headers: auth() })).status).toBe(201);
    await expectNoFinding(paysim);
  });
});

describe("ky", () => {
  // POST is not in its default retry.methods.
  const retry = { limit: 3, methods: ["get", "put", "head", "delete", "options", "trace", "post"], backoffLimit: 50 };

  it("with post in retry.methods and one key per creation: through a 500, a 429 and a lost answer, one payment, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const created = await ky.post(creations(), { json: ORDER, headers: { ...auth(), "idempotency-key": randomUUID() }, retry });
    expect(created.status).toBe(201);
    await expectNoFinding(paysim);
  });

  it("with a beforeRequest hook that makes the key: it runs once per call, so the retries keep it, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const client = ky.create({
      retry,
      hooks: {
        beforeRequest: [
          ({ request }) => {
            request.headers.set("idempotency-key", randomUUID());
          },
        ],
      },
    });
    expect((await client.post(creations(), { json: ORDER, headers: auth() })).status).toBe(201);
    await expectNoFinding(paysim);
  });

  it("with a beforeRetry hook that makes a new key: new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "server_error" });
    const created = await ky.post(creations(), {
      json: ORDER,
      headers: { ...auth(), "idempotency-key": randomUUID() },
      retry,
      hooks: {
        beforeRetry: [
          ({ request }) => {
            request.headers.set("idempotency-key", randomUUID());
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    await expectNewKeyOnRetry(paysim, created.headers.get("request-id")!, "got 500", 1);
  });

  it("with a maxRetryAfter below the Retry-After: ky waits maxRetryAfter instead, retry_after_ignored", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const created = await ky.post(creations(), {
      json: ORDER,
      headers: { ...auth(), "idempotency-key": randomUUID() },
      retry: { ...retry, maxRetryAfter: 50 },
    });
    expect(created.status).toBe(201);
    await expectRetryAfterIgnored(paysim, created.headers.get("request-id")!);
  });
});

describe("p-retry around fetch", () => {
  /** A 4xx other than 429 never heals: AbortError ends the retries, as p-retry's docs do for a 404. */
  class Answered extends Error {
    constructor(readonly response: Response) {
      super(`answered ${response.status}`);
    }
  }
  const send = async (key: string, body: object = ORDER) => {
    const response = await fetch(creations(), {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    });
    if (response.ok) return response;
    if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new AbortError(new Answered(response));
    throw new Answered(response);
  };
  /** Waits the Retry-After of a 429 before the next try (p-retry awaits onFailedAttempt). */
  const waitRetryAfter = async ({ error }: { error: Error }) => {
    const seconds = error instanceof Answered ? Number(error.response.headers.get("retry-after") ?? 0) : 0;
    if (seconds > 0) await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  };

  it("with the key made once, outside the attempts, and Retry-After waited: through a 500, a 429 and a lost answer, one payment, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    const key = randomUUID();
    const created = await pRetry(() => send(key), { retries: 3, minTimeout: 10, onFailedAttempt: waitRetryAfter });
    expect(created.status).toBe(201);
    await expectNoFinding(paysim);
  });

  it("a queue that sends the next orders while one waits out its 429: they are no retries, no finding", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const order = (amount: number) => {
      const key = randomUUID();
      return pRetry(() => send(key, { ...ORDER, amount }), { retries: 3, minTimeout: 10, onFailedAttempt: waitRetryAfter });
    };
    // The first order's 429 frees the queue's slot: the two next orders leave during its Retry-After.
    let others: Promise<Response[]> | undefined;
    const firstKey = randomUUID();
    const first = pRetry(() => send(firstKey, ORDER), {
      retries: 3,
      minTimeout: 10,
      onFailedAttempt: async (context) => {
        others ??= Promise.all([order(4300), order(4400)]);
        await waitRetryAfter(context);
      },
    });
    const created = [await first, ...(await others!)];
    expect(created.map((response) => response.status)).toEqual([201, 201, 201]);
    expect((await findingsOf(paysim)).codes).toEqual([]);
    expect(await paymentIntents(paysim)).toBe(3);
  });

  it("with the key made inside the attempt: new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "lost_response" });
    const created = await pRetry(() => send(randomUUID()), { retries: 3, minTimeout: 10 });
    expect(created.status).toBe(201);
    await expectNewKeyOnRetry(paysim, created.headers.get("request-id")!, "got no answer", 2);
  });

  it("without reading Retry-After: its own backoff is shorter, retry_after_ignored", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const key = randomUUID();
    const created = await pRetry(() => send(key), { retries: 3, minTimeout: 10 });
    expect(created.status).toBe(201);
    await expectRetryAfterIgnored(paysim, created.headers.get("request-id")!);
  });

  it("throwing a plain error for every answer that is not ok: a 400 is retried, retried_client_error", async () => {
    const key = randomUUID();
    let last: Response | undefined;
    const attempt = async () => {
      last = await fetch(creations(), {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ amount: -1 }),
      });
      if (!last.ok) throw new Error(`answered ${last.status}`);
      return last;
    };
    await expect(pRetry(attempt, { retries: 2, minTimeout: 10 })).rejects.toThrow("answered 400");
    await expectRetriedClientError(paysim, last!.headers.get("request-id")!, 400);
  });
});
