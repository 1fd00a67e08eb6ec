// Every answer of a realistic run (every operation, its successes and its errors), over real HTTP,
// validated against what GET /v1/openapi.json documents for that operation and status: an answer
// that does not match its schema, or a status the document does not give, fails the test.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { useReceiver } from "../helpers/disposables.js";
import { rawRequest } from "../helpers/http.js";
import { clientFor, freshKey, type ApiCall, type TestPaysim } from "../helpers/paysim.js";
import { closedPortUrl } from "../helpers/receiver.js";
import { triggerEveryEventType } from "../helpers/registry.js";
import { until } from "../helpers/unanswered.js";
import { advance, settle, useFrozenPaysim } from "../webhooks/support.js";

// ajv-formats is CommonJS: its default export is the module object under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
  requestId: string | null;
}

/** The validator of each documented answer: `METHOD /v1/path/{id}` → status → the schema's check. */
class DocumentedAnswers {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly operations: { method: string; pattern: RegExp; template: string; responses: Record<string, any> }[] = [];

  constructor(private readonly document: any) {
    addFormats(this.ajv);
    // The whole document is one schema resource, so `#/components/schemas/…` resolve inside it; its
    // OpenAPI members are words Ajv must accept there, while strict mode still refuses an unknown format.
    this.ajv.addVocabulary(Object.keys(document));
    this.ajv.addSchema({ ...document, $id: "paysim-openapi" });
    for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      for (const [method, operation] of Object.entries(item))
        this.operations.push({ method: method.toUpperCase(), pattern, template, responses: operation.responses });
    }
  }

  private check(pointer: string): ValidateFunction {
    return this.ajv.getSchema(`paysim-openapi#${pointer}`)!;
  }

  /** What is wrong with `answer` by the document, or undefined when it conforms. */
  problemWith(answer: Answer): string | undefined {
    const path = answer.path.split("?")[0]!;
    const operation = this.operations.find((candidate) => candidate.method === answer.method && candidate.pattern.test(path));
    let pointer: string;
    if (operation) {
      const response = operation.responses[String(answer.status)];
      if (!response) return `${answer.method} ${operation.template} does not document status ${answer.status}`;
      pointer = response.$ref
        ? `${response.$ref.slice(1)}/content/application~1json/schema`
        : `/paths/${operation.template.replaceAll("/", "~1")}/${answer.method.toLowerCase()}/responses/${answer.status}/content/application~1json/schema`;
    } else {
      // No operation has this method and path. A 405 names a method the path does not have, so no
      // operation lists it and the document has no component for it: its body is checked here.
      if (answer.status === 405) {
        const body = answer.body as { error?: { code?: unknown; message?: unknown }; request_id?: unknown };
        const isErrorBody = body.error?.code === "method_not_allowed" && typeof body.error.message === "string" && typeof body.request_id === "string";
        return isErrorBody ? undefined : `${answer.method} ${path} → 405 is not the error body: ${JSON.stringify(answer.body)}`;
      }
      // Any other is a route error (404) the document gives as a component.
      if (!this.document.components.responses[`Error${answer.status}`])
        return `no operation and no error component for ${answer.method} ${path} → ${answer.status}`;
      pointer = `/components/responses/Error${answer.status}/content/application~1json/schema`;
    }
    const validate = this.check(pointer);
    if (validate(answer.body)) return undefined;
    return `${answer.method} ${answer.path} → ${answer.status}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body)}`;
  }
}

/** Calls `paysim.api` and keeps every answer it gets. */
function recording(paysim: TestPaysim) {
  const answers: Answer[] = [];
  const call = async (method: string, path: string, request: ApiCall = {}) => {
    const response = await paysim.api(method, path, request);
    answers.push({ method, path, status: response.status, body: response.body, requestId: response.headers.get("request-id") });
    return response;
  };
  return { answers, call };
}

const PAYOUT = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };

describe("every answer of a realistic run matches the OpenAPI document", () => {
  it("covers every operation with its successes and its errors, and each answer conforms to its documented status", async () => {
    const paysim = await useFrozenPaysim({ payouts: "manual" });
    const receiver = await useReceiver(200);
    receiver.queue(500);
    const { answers, call } = recording(paysim);

    const document = (await call("GET", "/v1/openapi.json", { key: null })).body;
    const documented = new DocumentedAnswers(document);

    // Webhook endpoints: one that answers, one nobody listens on (attempts with a network error).
    const endpoint = (await call("POST", "/v1/webhook_endpoints", { body: { url: receiver.url } })).body;
    await call("POST", "/v1/webhook_endpoints", { body: { url: await closedPortUrl(), enabled_events: ["payment_intent.created"] } });
    await call("POST", "/v1/webhook_endpoints", { body: { url: "ftp://example.com" } });
    await call("GET", "/v1/webhook_endpoints");
    await call("GET", "/v1/webhook_endpoints?limit=5");
    await call("GET", `/v1/webhook_endpoints/${endpoint.id}`);
    await call("GET", "/v1/webhook_endpoints/we_unknown");

    // Payment intents: creation, its replay and conflict, the moves, the refusals.
    const key = freshKey();
    const intent = (
      await call("POST", "/v1/payment_intents", { body: { amount: 1000, description: "order 1", capture_method: "manual" }, idempotencyKey: key })
    ).body;
    await call("POST", "/v1/payment_intents", { body: { amount: 1000, description: "order 1", capture_method: "manual" }, idempotencyKey: key });
    await call("POST", "/v1/payment_intents", { body: { amount: 2000 }, idempotencyKey: key });
    await call("POST", "/v1/payment_intents", { body: { amount: 1000 } });
    await call("POST", "/v1/payment_intents", { body: { amount: 1.5 }, idempotencyKey: freshKey() });
    await call("POST", "/v1/payment_intents", { body: { amount: 1000, colour: "red" }, idempotencyKey: freshKey() });
    await call("POST", "/v1/payment_intents", { raw: "{", contentType: "application/json", idempotencyKey: freshKey() });
    await call("POST", "/v1/payment_intents", { body: { amount: 1000, description: "x".repeat(70 * 1024) }, idempotencyKey: freshKey() });
    await call("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey(), key: null });
    await call("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey(), key: "sk_test_nobody" });
    await call("GET", "/v1/payment_intents");
    await call("GET", "/v1/payment_intents?limit=1&state=created");
    await call("GET", `/v1/payment_intents?starting_after=${intent.id}`);
    await call("GET", "/v1/payment_intents?limit=0");
    await call("GET", "/v1/payment_intents?state=lost");
    await call("GET", `/v1/payment_intents/${intent.id}`);
    await call("GET", "/v1/payment_intents/pi_unknown");
    await call("POST", `/v1/payment_intents/${intent.id}/capture`);
    await call("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_mastercard" } });
    await call("POST", `/v1/payment_intents/${intent.id}/capture`, { idempotencyKey: freshKey() });
    await call("POST", `/v1/payment_intents/${intent.id}/cancel`);
    await call("POST", "/v1/payment_intents/pi_unknown/cancel");
    const declined = (await call("POST", "/v1/payment_intents", { body: { amount: 500, currency: "USD" }, idempotencyKey: freshKey() })).body;
    await call("POST", `/v1/payment_intents/${declined.id}/authorize`, { body: { payment_method: "pm_card_unknown" } });
    await call("POST", `/v1/payment_intents/${declined.id}/authorize`, { body: { payment_method: "pm_card_declined" } });
    const canceled = (await call("POST", "/v1/payment_intents", { body: { amount: 700 }, idempotencyKey: freshKey() })).body;
    await call("POST", `/v1/payment_intents/${canceled.id}/cancel`, { body: {} });
    await call("POST", `/v1/payment_intents/${canceled.id}/cancel`, { body: { reason: "x" } });

    // Payouts and their sandbox moves.
    const payout = (await call("POST", "/v1/payouts", { body: PAYOUT, idempotencyKey: freshKey() })).body;
    await call("POST", "/v1/payouts", { body: { ...PAYOUT, destination_token: "4242424242424242" }, idempotencyKey: freshKey() });
    await call("GET", "/v1/payouts?status=pending");
    await call("GET", "/v1/payouts?status=lost");
    await call("GET", `/v1/payouts/${payout.id}`);
    await call("GET", "/v1/payouts/po_unknown");
    await call("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to: "succeeded" } });
    await call("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to: "processing" }, idempotencyKey: freshKey() });
    await call("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to: "succeeded" } });
    await call("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to: "partially_reversed", amount: 1000 } });
    await call("POST", "/v1/sandbox/payouts/po_unknown/transition", { body: { to: "processing" } });
    const failing = (
      await call("POST", "/v1/payouts", { body: { ...PAYOUT, destination_type: "account", destination_token: "tok_account_fail" }, idempotencyKey: freshKey() })
    ).body;
    await call("POST", `/v1/sandbox/payouts/${failing.id}/transition`, { body: { to: "failed" } });

    // Test events, the clock (which makes the retries), events with their deliveries.
    await call("POST", "/v1/sandbox/webhook_ingest", {
      body: { type: "payout.failed", data: { reference: "POUT-EXT", amount: 100, currency: "EUR", note: { any: ["thing"] } } },
    });
    await call("POST", "/v1/sandbox/webhook_ingest", { body: { type: "payout.lost", data: { reference: "R", amount: 1, currency: "EUR" } } });
    await settle(paysim);
    await call("GET", "/v1/sandbox/clock");
    await advance(paysim, 60);
    await call("POST", "/v1/sandbox/clock/advance", { body: { seconds: 3600 } });
    await call("POST", "/v1/sandbox/clock/advance", { body: { seconds: 0 } });
    await call("POST", "/v1/sandbox/clock/advance", { body: { seconds: "60" } });
    await settle(paysim);
    const events = (await call("GET", "/v1/events?limit=100")).body.data as { id: string; type: string }[];
    await call("GET", "/v1/events?type=payment_intent.created");
    await call("GET", "/v1/events?type=nothing");
    for (const event of events) await call("GET", `/v1/events/${event.id}`);
    await call("GET", "/v1/events/evt_unknown");
    await call("POST", `/v1/events/${events[0]!.id}/resend`);
    await call("POST", `/v1/events/${events[0]!.id}/resend`, { body: { to: "x" } });
    await call("POST", "/v1/events/evt_unknown/resend");
    await settle(paysim);
    await call("GET", `/v1/events/${events[0]!.id}`);

    // The waits over HTTP: a match, a timeout (408), refused queries.
    await call("GET", `/v1/sandbox/events/wait?type=payment_intent.created,payout.created&object_id=${intent.id}`);
    await call("GET", "/v1/sandbox/webhooks/wait?status=attempted");
    await call("GET", "/v1/sandbox/webhooks/wait?type=payout.created&attempt=2&chaos=duplicate&timeout_ms=1");
    await call("GET", "/v1/sandbox/events/wait?type=payment_intent.nope");
    await call("GET", "/v1/sandbox/webhooks/wait?attempt=8");

    // The coverage report, and a refused query.
    await call("GET", "/v1/sandbox/coverage");
    await call("GET", "/v1/sandbox/coverage?area=events");
    await call("GET", "/v1/sandbox/coverage?scope=self");
    await call("GET", "/v1/sandbox/report");
    await call("GET", "/v1/sandbox/report?scope=self");
    await call("GET", "/v1/sandbox/report?scope=most");
    await call("DELETE", "/v1/sandbox/coverage");

    // Deleting an endpoint, resetting the sandbox, and answers of no operation (unknown route, wrong method).
    // Fault rules (docs/faults.md): their own answers, and the 500 and 429 they make another operation answer.
    await call("POST", "/v1/sandbox/faults", { body: { fault: "server_error", match: { method: "GET", path: "/v1/payouts" } } });
    await call("GET", "/v1/payouts");
    await call("POST", "/v1/sandbox/faults", { body: { fault: "rate_limited", match: { path: "/v1/payment_intents/*" } } });
    await call("GET", `/v1/payment_intents/${intent.id}`);
    const rule = (await call("POST", "/v1/sandbox/faults", { body: { fault: "latency", latency_ms: 1, times: 5 } })).body;
    await call("POST", "/v1/sandbox/faults", { body: { fault: "latency" } });
    await call("POST", "/v1/sandbox/faults", { body: { fault: "server_error", match: { path: "/v1/sandbox/clock" } } });
    await call("GET", "/v1/sandbox/faults");
    await call("GET", "/v1/sandbox/faults?limit=1");
    await call("DELETE", `/v1/sandbox/faults/${rule.id}`);
    await call("DELETE", `/v1/sandbox/faults/${rule.id}`);
    await call("POST", "/v1/sandbox/faults", { body: { fault: "timeout", match: { path: "/v1/refunds" } } });
    await call("DELETE", "/v1/sandbox/faults");
    await call("DELETE", `/v1/webhook_endpoints/${endpoint.id}`);
    await call("DELETE", `/v1/webhook_endpoints/${endpoint.id}`);
    // Instances: one started, used, listed and stopped; the refusals of a bad body, a missing key, a second stop.
    const instance = (await call("POST", "/v1/sandbox/instances", { body: { name: "Worker", forward_to: [receiver.url] }, idempotencyKey: freshKey() })).body;
    await call("POST", "/v1/sandbox/instances", { body: { currency: "eur" }, idempotencyKey: freshKey() });
    await call("POST", "/v1/sandbox/instances", { body: {} });
    await call("GET", "/v1/sandbox/instances");
    await call("GET", "/v1/sandbox/instances?limit=1");
    const child = clientFor(instance.url, instance.secret_key);
    const nested = await child.api("POST", "/v1/sandbox/instances", { body: {}, idempotencyKey: freshKey() });
    answers.push({ method: "POST", path: "/v1/sandbox/instances", status: nested.status, body: nested.body, requestId: nested.headers.get("request-id") });
    expect(nested.body.error.code).toBe("nested_instance");
    await call("DELETE", `/v1/sandbox/instances/${instance.id}`);
    await call("DELETE", `/v1/sandbox/instances/${instance.id}`);
    await call("POST", "/v1/sandbox/reset", { body: { everything: true } });
    await call("POST", "/v1/sandbox/reset");
    // Every event type as `paysim trigger` makes it (fixtures/triggers/): each resource that emits one reaches its operations.
    await triggerEveryEventType({ request: (method, path, { body, idempotencyKey }) => call(method, path, { body, idempotencyKey }) });
    await call("GET", "/v1/refunds");
    await call("DELETE", "/v1/payouts");
    // A Host the loopback defence refuses (fetch cannot send another Host).
    for (const path of ["/v1/payouts", "/v1/openapi.json"]) {
      const refused = await rawRequest(paysim.url, { method: "GET", path, headers: { Host: "evil.example", Authorization: `Bearer ${paysim.secretKey}` } });
      answers.push({ method: "GET", path, status: refused.status, body: refused.body, requestId: String(refused.headers["request-id"]) });
    }

    // The run reached what it is meant to cover: every operation, and each kind of answer.
    const problems = answers.map((answer) => documented.problemWith(answer)).filter((problem) => problem !== undefined);
    expect(problems).toEqual([]);
    const operationIds = Object.values<Record<string, any>>(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    const reached = new Set<string>();
    for (const answer of answers) {
      const path = answer.path.split("?")[0]!;
      for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
        if (new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path) && item[answer.method.toLowerCase()] && answer.status < 300) {
          reached.add(item[answer.method.toLowerCase()].operationId);
        }
      }
    }
    expect([...reached].sort()).toEqual([...operationIds].sort());
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 201, 400, 401, 403, 404, 405, 408, 409, 413, 429, 500]));
    for (const answer of answers) expect(answer.requestId, `${answer.method} ${answer.path}`).toMatch(/^req_/);

    // And the deliveries it documents were really there: an answered attempt, a refused one, a network error.
    const attempts = answers
      .filter((answer) => answer.method === "GET" && /^\/v1\/events\/evt_/.test(answer.path) && answer.status === 200)
      .flatMap((answer) =>
        (answer.body as { deliveries: { attempts: { status_code: number | null; error: string | null }[] }[] }).deliveries.flatMap((d) => d.attempts),
      );
    expect(attempts.some((attempt) => attempt.status_code === 200)).toBe(true);
    expect(attempts.some((attempt) => attempt.status_code === 500)).toBe(true);
    expect(attempts.some((attempt) => attempt.status_code === null && attempt.error !== null)).toBe(true);
  });

  it("documents the 503 that a wait gets when paysim stops", async () => {
    const paysim = await useFrozenPaysim();
    const documented = new DocumentedAnswers((await paysim.api("GET", "/v1/openapi.json", { key: null })).body);
    const path = "/v1/sandbox/events/wait?type=payout.created&timeout_ms=60000";
    const waiting = paysim.api("GET", path);
    await until(() => paysim.waits.running() === 1, "the wait is held");
    await paysim.close();
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(documented.problemWith({ method: "GET", path, status: answer.status, body: answer.body, requestId: null })).toBeUndefined();
  });

  it("fails an answer that strays from its documented schema or status", async () => {
    const paysim = await useFrozenPaysim();
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const documented = new DocumentedAnswers(document);
    const created = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey() });
    const answer: Answer = { method: "POST", path: "/v1/payment_intents", status: 201, body: created.body, requestId: null };
    expect(documented.problemWith(answer)).toBeUndefined();
    expect(documented.problemWith({ ...answer, body: { ...created.body, surprise: true } })).toMatch(/must NOT have additional properties/);
    expect(documented.problemWith({ ...answer, body: { ...created.body, state: "lost" } })).toMatch(/must be equal to one of the allowed values/);
    expect(documented.problemWith({ ...answer, body: { ...created.body, created_at: "yesterday" } })).toMatch(/created_at/);
    expect(documented.problemWith({ ...answer, status: 202 })).toMatch(/does not document status 202/);
    expect(
      documented.problemWith({ ...answer, status: 400, body: { error: { code: "not_found", message: "x" }, request_id: created.body.request_id } }),
    ).toMatch(/allowed values/);
  });
});

describe("the examples the OpenAPI document shows", () => {
  it("conform to the schemas they illustrate: each example answer and request body", async () => {
    const paysim = await useFrozenPaysim();
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const documented = new DocumentedAnswers(document);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: "paysim-openapi-bodies" });
    let shown = 0;
    for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const example = response.content?.["application/json"]?.example;
          if (example === undefined) continue;
          shown += 1;
          expect(
            documented.problemWith({
              method: method.toUpperCase(),
              path: template.replace(/\{[^}]+\}/g, "x"),
              status: Number(status),
              body: example,
              requestId: null,
            }),
          ).toBeUndefined();
        }
        const body = operation.requestBody?.content["application/json"];
        if (body?.example === undefined) continue;
        shown += 1;
        const validate = ajv.getSchema(`paysim-openapi-bodies#/components/schemas/${body.schema.$ref.split("/").pop()}`)!;
        expect(validate(body.example), `${method} ${template}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    // The instances' operations show theirs (a request body and three answers), the waits theirs.
    expect(shown).toBeGreaterThanOrEqual(6);
    expect(document.paths["/v1/sandbox/webhooks/wait"].get.responses["200"].content["application/json"].example).toMatchObject({ object: "webhook_wait" });
    expect(document.paths["/v1/sandbox/events/wait"].get.responses["200"].content["application/json"].example).toMatchObject({ object: "event" });
    expect(document.paths["/v1/sandbox/instances"].post.requestBody.content["application/json"].example).toMatchObject({
      forward_to: ["http://127.0.0.1:3000/webhooks"],
    });
  });
});
