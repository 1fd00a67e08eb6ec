// Python's common HTTP clients (Debian's python3-requests with urllib3's Retry, python3-httpx),
// configured as their docs recommend, against a real paysim on 127.0.0.1: each gets through the
// faults with one payment and no finding, and each mistake raises exactly the finding that names
// it, with the request id the client saw (docs/testing.md, "What real clients do").
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestPaysim, tempDir, type TestPaysim } from "../helpers/paysim.js";
import { pythonWith } from "../helpers/python.js";
import {
  EVERY_FAULT,
  expectNewKeyOnRetry,
  expectNoFinding,
  expectRetriedClientError,
  expectRetryAfterIgnored,
  failNextCreations,
  paymentIntents,
} from "./support.js";

const SCRIPT = fileURLToPath(new URL("retrying_clients.py", import.meta.url));

let paysim: TestPaysim;
let folder: ReturnType<typeof tempDir>;
beforeEach(async () => {
  paysim = await startTestPaysim({ db: ":memory:" });
  folder = tempDir("paysim-python-clients-");
});
afterEach(async () => {
  await paysim.dispose();
  folder.cleanup();
});

/** Runs one case of retrying_clients.py; its last answer's status and Request-Id. */
async function runCase(name: string): Promise<{ status: number; request_id: string }> {
  const python = pythonWith(["requests", "httpx"], folder.dir);
  if (python === undefined) throw new Error("no python3 imports requests and httpx: install Debian's python3-requests and python3-httpx (.ci/run does)");
  const { stdout } = await promisify(execFile)("python3", [SCRIPT, name], {
    env: { ...process.env, ...python, PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey },
  });
  return JSON.parse(stdout);
}

describe("requests with urllib3's Retry on an HTTPAdapter", () => {
  it("with POST in allowed_methods and one key per creation: through a 500, a 429 and a lost answer, one payment, no finding", async () => {
    await failNextCreations(paysim, ...EVERY_FAULT);
    expect(await runCase("requests-correct")).toMatchObject({ status: 201 });
    await expectNoFinding(paysim);
  });

  it("with respect_retry_after_header=False: retry_after_ignored", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const answer = await runCase("requests-without-retry-after");
    expect(answer.status).toBe(201);
    await expectRetryAfterIgnored(paysim, answer.request_id);
  });

  it("with a 409 in status_forcelist: the key's conflict is sent three times, retried_client_error", async () => {
    const answer = await runCase("requests-retrying-409");
    expect(answer.status).toBe(409);
    await expectRetriedClientError(paysim, answer.request_id, 409);
    expect(await paymentIntents(paysim)).toBe(1);
  });
});

describe("httpx with transport retries and a retry loop of its own", () => {
  it("with the key made before the loop and Retry-After waited: through a 500, a 429, a timeout and a lost answer, one payment, no finding", async () => {
    await failNextCreations(
      paysim,
      { fault: "server_error" },
      { fault: "rate_limited", retry_after_seconds: 1 },
      { fault: "timeout", latency_ms: 60_000 },
      { fault: "lost_response" },
    );
    expect(await runCase("httpx-correct")).toMatchObject({ status: 201 });
    await expectNoFinding(paysim);
  });

  it("with the key made inside the loop, after a timeout it cut: new_key_on_retry", async () => {
    await failNextCreations(paysim, { fault: "timeout", latency_ms: 60_000 });
    const answer = await runCase("httpx-new-key-per-attempt");
    expect(answer.status).toBe(201);
    await expectNewKeyOnRetry(paysim, answer.request_id, "got no answer", 1);
  });

  it("with a loop that does not read Retry-After: retry_after_ignored", async () => {
    await failNextCreations(paysim, { fault: "rate_limited", retry_after_seconds: 1 });
    const answer = await runCase("httpx-without-retry-after");
    expect(answer.status).toBe(201);
    await expectRetryAfterIgnored(paysim, answer.request_id);
  });
});
