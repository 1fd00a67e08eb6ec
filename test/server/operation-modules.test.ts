import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPENAPI_OPERATION } from "../../src/server/openapi/document-operation.js";
import { RESOURCES } from "../../src/domain/resources.js";
import { usePaysimApp } from "../helpers/disposables.js";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const OPERATIONS = `${SRC}server/operations/`;
const RESOURCE_FOLDERS = `${SRC}resources/`;

/**
 * The sandbox's own controls, each filed in its module, and the one sandbox path that acts on a
 * resource without naming its collection (the test event's ingestion, in the events' folder).
 */
const CONTROLS: readonly (readonly [string, RegExp])[] = [
  ["sandbox.ts", /^\/v1\/sandbox\/(clock|reset)(\/|$)/],
  ["waits.ts", /^\/v1\/sandbox\/(events|webhooks)\/wait$/],
  ["coverage.ts", /^\/v1\/sandbox\/(coverage|report)$/],
  ["resources/events/operations.ts", /^\/v1\/sandbox\/webhook_ingest$/],
];

/**
 * Where an operation may be filed: a control's module, else the module of the resource its path
 * names (domain/resources.ts), `payouts.ts` for `/v1/payouts/…` and for a sandbox path that acts
 * on one (`/v1/sandbox/payouts/…/transition`), or that resource's folder's `operations.ts`.
 */
function modulesFor(path: string): string[] {
  const control = CONTROLS.find(([, pattern]) => pattern.test(path));
  if (control) return [control[0]];
  const collection = /^\/v1\/(?:sandbox\/)?(\w+)(?:\/|$)/.exec(path)?.[1];
  const resource = Object.values(RESOURCES).find((candidate) => candidate.collection === collection);
  if (resource === undefined) return [];
  const folder = resource.collection.replaceAll("_", "-");
  return [`${folder}.ts`, `resources/${folder}/operations.ts`];
}

/** The modules that may file operations: server/operations/'s (but its registry, index.ts), and each resource folder's operations.ts. */
function operationModules(): { file: string; source: string }[] {
  const own = readdirSync(OPERATIONS)
    .filter((name) => name.endsWith(".ts") && name !== "index.ts")
    .map((name) => ({ file: name, source: `${OPERATIONS}${name}` }));
  const folders = existsSync(RESOURCE_FOLDERS) ? readdirSync(RESOURCE_FOLDERS, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
  const ofFolders = folders
    .filter((folder) => existsSync(`${RESOURCE_FOLDERS}${folder.name}/operations.ts`))
    .map((folder) => ({ file: `resources/${folder.name}/operations.ts`, source: `${RESOURCE_FOLDERS}${folder.name}/operations.ts` }));
  return [...own, ...ofFolders];
}

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
    for (const { file, source } of operationModules()) {
      const operations = operationsOf((await import(source)) as Record<string, unknown>);
      if (operations.length === 0) continue;
      for (const operation of operations) {
        if (!modulesFor(operation.path).includes(file)) misfiled.push(`${operation.operationId} (${operation.path}) in ${file}`);
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
