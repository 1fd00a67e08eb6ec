import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { usePaysimApp } from "../helpers/disposables.js";

const OPERATIONS = fileURLToPath(new URL("../../src/server/operations/", import.meta.url));
const RESOURCE_FOLDERS = fileURLToPath(new URL("../../src/resources/", import.meta.url));

/**
 * Where each operation is filed: the module its path names. A path under /v1/sandbox/ that acts
 * on a resource is filed with that resource (a payout's drawn move in resources/payouts/operations.ts,
 * the test event's ingestion in events.ts); the sandbox's own controls each have their module. A
 * resource folder's operations.ts files the paths of its collection.
 */
const FILED: Record<string, RegExp> = {
  "payment-intents.ts": /^\/v1\/payment_intents(\/|$)/,
  "events.ts": /^\/v1\/(events(\/|$)|sandbox\/webhook_ingest$)/,
  "webhook-endpoints.ts": /^\/v1\/webhook_endpoints(\/|$)/,
  "instances.ts": /^\/v1\/sandbox\/instances(\/|$)/,
  "faults.ts": /^\/v1\/sandbox\/faults(\/|$)/,
  "sandbox.ts": /^\/v1\/sandbox\/(clock|reset)(\/|$)/,
  "waits.ts": /^\/v1\/sandbox\/(events|webhooks)\/wait$/,
  "coverage.ts": /^\/v1\/sandbox\/(coverage|report)$/,
  "openapi-document.ts": /^\/v1\/openapi\.json$/,
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

/** Each resource folder's operations.ts and what its operations' paths must name: its own collection, or the sandbox's paths on it. */
function resourceOperationFiles(): { file: string; pattern: RegExp }[] {
  return readdirSync(RESOURCE_FOLDERS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${RESOURCE_FOLDERS}${entry.name}/operations.ts`))
    .map((entry) => ({
      file: `${RESOURCE_FOLDERS}${entry.name}/operations.ts`,
      pattern: new RegExp(`^/v1/(sandbox/)?${entry.name.replaceAll("-", "_")}(/|$)`),
    }));
}

describe("the operations of src/server/operations/ and of the resource folders", () => {
  it("are each filed in the module their path names, and together are the operations the app serves", async () => {
    const misfiled: string[] = [];
    const filed = new Set<string>();
    // index.ts is the registry that lists them all (servedOperations): it files none of its own.
    const files = [
      ...readdirSync(OPERATIONS)
        .filter((name) => name.endsWith(".ts") && name !== "index.ts")
        .map((name) => ({ file: `${OPERATIONS}${name}`, pattern: FILED[name] })),
      ...resourceOperationFiles(),
    ];
    for (const { file, pattern } of files) {
      const operations = operationsOf((await import(file)) as Record<string, unknown>);
      if (operations.length === 0) continue;
      for (const operation of operations) {
        if (!pattern?.test(operation.path)) misfiled.push(`${operation.operationId} (${operation.path}) in ${file}`);
        filed.add(operation.operationId);
      }
    }
    expect(misfiled).toEqual([]);

    const paysim = await usePaysimApp();
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const served = Object.values<Record<string, { operationId: string }>>(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect([...filed].sort()).toEqual([...served].sort());
  });
});
