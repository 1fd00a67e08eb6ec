import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPENAPI_OPERATION } from "../../src/server/openapi/document-operation.js";
import { usePaysimApp } from "../helpers/disposables.js";

const OPERATIONS = fileURLToPath(new URL("../../src/server/operations/", import.meta.url));

/**
 * Where each operation is filed: the module its path names. A path under /v1/sandbox/ that acts
 * on a resource is filed with that resource (a payout's drawn move in payouts.ts, the test event's
 * ingestion in events.ts); the sandbox's own controls each have their module.
 */
const FILED: Record<string, RegExp> = {
  "payment-intents.ts": /^\/v1\/payment_intents(\/|$)/,
  "payouts.ts": /^\/v1\/(sandbox\/)?payouts(\/|$)/,
  "events.ts": /^\/v1\/(events(\/|$)|sandbox\/webhook_ingest$)/,
  "webhook-endpoints.ts": /^\/v1\/webhook_endpoints(\/|$)/,
  "instances.ts": /^\/v1\/sandbox\/instances(\/|$)/,
  "faults.ts": /^\/v1\/sandbox\/faults(\/|$)/,
  "sandbox.ts": /^\/v1\/sandbox\/(clock|reset)(\/|$)/,
  "waits.ts": /^\/v1\/sandbox\/(events|webhooks)\/wait$/,
  "coverage.ts": /^\/v1\/sandbox\/(coverage|report)$/,
};

interface Filed {
  operationId: string;
  path: string;
}

const isOperation = (value: unknown): value is Filed => typeof value === "object" && value !== null && "operationId" in value && "path" in value;

/** The operations a module exports: one by one, in lists, or from a function that makes them (coverage.ts). */
function operationsOf(exported: Record<string, unknown>): Filed[] {
  return Object.values(exported).flatMap((value) => {
    const made =
      typeof value === "function" && value.length === 1 && /Operations$/.test(value.name) ? (value as (arg: unknown) => unknown)(() => undefined) : value;
    return (Array.isArray(made) ? made : [made]).filter(isOperation);
  });
}

describe("the operations of src/server/operations/", () => {
  it("are each filed in the module their path names, and together are the operations the app serves", async () => {
    const misfiled: string[] = [];
    const filed = new Set<string>();
    // index.ts is the registry that lists them all (servedOperations): it files none of its own.
    for (const file of readdirSync(OPERATIONS).filter((name) => name.endsWith(".ts") && name !== "index.ts")) {
      const operations = operationsOf((await import(`${OPERATIONS}${file}`)) as Record<string, unknown>);
      if (operations.length === 0) continue;
      const pattern = FILED[file];
      for (const operation of operations) {
        if (!pattern?.test(operation.path)) misfiled.push(`${operation.operationId} (${operation.path}) in ${file}`);
        filed.add(operation.operationId);
      }
    }
    expect(misfiled).toEqual([]);
    // The document's own operation is filed with the document, in server/openapi/.
    filed.add(OPENAPI_OPERATION.operationId);

    const paysim = await usePaysimApp();
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const served = Object.values<Record<string, { operationId: string }>>(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect([...filed].sort()).toEqual([...served].sort());
  });
});
