import { expect } from "vitest";
import type { TestPaysim } from "../helpers/paysim.js";

/** The order every client creates: one payment intent, whatever fails on the way. */
export const ORDER = { amount: 4200, description: "Order 42" };

/** A fault rule for the creations of the paysim's default company (docs/faults.md). */
export interface CreationFault {
  fault: "server_error" | "rate_limited" | "lost_response" | "timeout";
  retry_after_seconds?: number;
  latency_ms?: number;
}

/**
 * Rules that hit the next creations one each, in order: the first creation gets the first fault,
 * the second the next one, and so on (rules are tried oldest first, one fault per request).
 */
export async function failNextCreations(paysim: TestPaysim, ...faults: CreationFault[]): Promise<void> {
  for (const fault of faults) {
    const answer = await paysim.api("POST", "/v1/sandbox/faults", { body: { ...fault, match: { method: "POST", path: "/v1/payment_intents" }, times: 1 } });
    expect(answer.status, answer.text).toBe(201);
  }
}

/** Every fault a correct client must get through with one payment and no finding. */
export const EVERY_FAULT: CreationFault[] = [{ fault: "server_error" }, { fault: "rate_limited", retry_after_seconds: 1 }, { fault: "lost_response" }];

/** The findings of the run as `[code, count]`, and the findings themselves. */
export async function findingsOf(paysim: TestPaysim) {
  const { findings } = await paysim.report();
  return { codes: findings.map((finding) => [finding.code, finding.count]), findings };
}

/** How many payment intents the company holds: one per order, or the client charged twice. */
export async function paymentIntents(paysim: TestPaysim): Promise<number> {
  const answer = await paysim.api("GET", "/v1/payment_intents?limit=100");
  expect(answer.status).toBe(200);
  return answer.body.data.length;
}

/** A correct client's run: one payment intent, no finding. */
export async function expectNoFinding(paysim: TestPaysim): Promise<void> {
  expect((await findingsOf(paysim)).codes).toEqual([]);
  expect(await paymentIntents(paysim)).toBe(1);
}

/**
 * A client that made a new key on a retry: exactly new_key_on_retry, raised by `retryId` (the
 * request whose answer the client got), naming the earlier attempt that failed; `payments` the
 * company then holds.
 */
export async function expectNewKeyOnRetry(paysim: TestPaysim, retryId: string, earlier: "got no answer" | "got 500", payments: number): Promise<void> {
  const { codes, findings } = await findingsOf(paysim);
  expect(codes).toEqual([["new_key_on_retry", 1]]);
  expect(findings[0]!.examples).toEqual([
    expect.objectContaining({ request_id: retryId, detail: expect.stringMatching(new RegExp(`the same body was sent as req_\\w+, which ${earlier}$`)) }),
  ]);
  // What the finding warns of: after a lost answer, the retry made a second payment (a 500 or a
  // timeout fault made none, but production's may have).
  expect(await paymentIntents(paysim)).toBe(payments);
}

/** A client that retried a 429 before its Retry-After: exactly retry_after_ignored, raised by `retryId`, naming the 429's request. */
export async function expectRetryAfterIgnored(paysim: TestPaysim, retryId: string, rateLimitedId?: string): Promise<void> {
  const { codes, findings } = await findingsOf(paysim);
  expect(codes).toEqual([["retry_after_ignored", 1]]);
  expect(findings[0]!.examples).toEqual([
    expect.objectContaining({
      request_id: retryId,
      detail: expect.stringMatching(new RegExp(`before the Retry-After of ${rateLimitedId ?? "req_\\w+"} had passed$`)),
    }),
  ]);
}

/** A client that sent the same 4xx request three times: exactly retried_client_error, raised by the third, `lastId`. */
export async function expectRetriedClientError(paysim: TestPaysim, lastId: string, status: number): Promise<void> {
  const { codes, findings } = await findingsOf(paysim);
  expect(codes).toEqual([["retried_client_error", 1]]);
  expect(findings[0]!.examples).toEqual([expect.objectContaining({ request_id: lastId, detail: `POST /v1/payment_intents got ${status} 3 times in a row` })]);
}
