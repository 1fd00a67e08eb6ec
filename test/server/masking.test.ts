import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { expectApiError } from "../helpers/errors.js";
import { suiteScope, usePaysimApp, useTempPath } from "../helpers/disposables.js";
import { createIntent, freshKey } from "../helpers/paysim.js";
import type { TestPaysim } from "../helpers/paysim.js";

/** PANs sent in every form docs/guarantees.md names, each a different number so that each can be looked for. */
const SENT = [
  { description: "Visa 4242 4242 4242 4242 spaces", pan: "4242424242424242", masked: "Visa **** **** **** 4242 spaces" },
  { description: "MC 5555-5555-5555-4444 hyphens", pan: "5555555555554444", masked: "MC ****-****-****-4444 hyphens" },
  { description: "plain 4000056655665556 digits", pan: "4000056655665556", masked: "plain ************5556 digits" },
];
const CVV_MARKER = "CVVMARKER7391";

/** Every way a PAN could sit in a file: the digits alone, split by spaces or hyphens, or the first 12 digits. */
function panForms(pan: string): string[] {
  const groups = pan.match(/.{1,4}/g)!;
  return [pan, groups.join(" "), groups.join("-"), pan.slice(0, 12)];
}

function fileHolds(path: string, text: string): boolean {
  return existsSync(path) && readFileSync(path).includes(Buffer.from(text, "utf8"));
}

function expectNoSecretsIn(paths: string[]) {
  for (const path of paths) {
    for (const { pan } of SENT) for (const form of panForms(pan)) expect(fileHolds(path, form), `${form} in ${path}`).toBe(false);
    expect(fileHolds(path, CVV_MARKER), `CVV in ${path}`).toBe(false);
  }
}

const thisFile = suiteScope();
let paysim: TestPaysim;
/** The instance's SQLite file, in the folder the suite's cleanup removes. */
let dbPath: string;
const responses: any[] = [];

beforeAll(async () => {
  paysim = await usePaysimApp({ db: useTempPath("paysim.db", "paysim-test-", thisFile) }, thisFile);
  dbPath = paysim.dbPath;
  for (const { description } of SENT) {
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, description }, idempotencyKey: freshKey() });
    responses.push(response);
  }
  // Attempts to slip card data in through other doors.
  responses.push(await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, cvv: CVV_MARKER }, idempotencyKey: freshKey() }));
  responses.push(
    await paysim.api("POST", "/v1/payment_intents", {
      body: { amount: 1000, card: { number: "4242424242424242", cvc: CVV_MARKER } },
      idempotencyKey: freshKey(),
    }),
  );
  responses.push(
    await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, "5555555555554444": "as a field name" }, idempotencyKey: freshKey() }),
  );
  responses.push(await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: "4000056655665556" }));
  const intent = await createIntent(paysim, { amount: 1000, description: "4242424242424242", capture_method: "manual" });
  responses.push(await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_visa", cvv: CVV_MARKER } }));
  responses.push(await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { idempotencyKey: "5555 5555 5555 4444" }));
});

describe("a PAN sent in a description", () => {
  it.each(SENT.map((s, i) => [s.description, s.masked, i] as const))("%j is answered masked as %j, last 4 kept", (_sent, masked, i) => {
    expect(responses[i].status).toBe(201);
    expect(responses[i].body.description).toBe(masked);
  });

  it("reads back masked", async () => {
    const read = await paysim.api("GET", `/v1/payment_intents/${responses[0].body.id}`);
    expect(read.body.description).toBe(SENT[0]!.masked);
  });
});

describe("card data in other fields", () => {
  it("refuses a cvv field as unknown (400, param cvv)", () => {
    expectApiError(responses[3], 400, "invalid_request", "cvv");
    expect(responses[3].text).not.toContain(CVV_MARKER);
  });

  it("refuses a card object as unknown without echoing the number", () => {
    expectApiError(responses[4], 400, "invalid_request", "card");
    expect(responses[4].text).not.toContain("4242424242424242");
  });

  it("masks a PAN used as a field name in the error that names it", () => {
    expectApiError(responses[5], 400, "invalid_request", "************4444");
    expect(responses[5].text).not.toContain("5555555555554444");
  });

  it("accepts a PAN-like Idempotency-Key (it is the client's opaque value)", () => {
    expect(responses[6].status).toBe(201);
    expect(responses[8].status).toBe(200);
  });

  it("refuses a cvv on authorize as unknown", () => {
    expectApiError(responses[7], 400, "invalid_request", "cvv");
  });
});

describe("the database files", () => {
  it("hold no PAN and no CVV while paysim runs (database and -wal)", () => {
    expect(existsSync(`${dbPath}-wal`)).toBe(true);
    expectNoSecretsIn([dbPath, `${dbPath}-wal`]);
  });

  it("still hold the masked form, so the check above looks at the right files", () => {
    const holdsMasked = fileHolds(dbPath, "**** **** **** 4242") || fileHolds(`${dbPath}-wal`, "**** **** **** 4242");
    expect(holdsMasked).toBe(true);
  });

  it("hold no PAN and no CVV once paysim has closed (WAL checkpointed)", async () => {
    await paysim.close();
    expect(fileHolds(dbPath, "**** **** **** 4242")).toBe(true);
    expectNoSecretsIn([dbPath, `${dbPath}-wal`, `${dbPath}-shm`]);
  });
});
