import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, useTempDir } from "./helpers/disposables.js";

// Compiles a merchant's strict TypeScript project against the built package (dist/): run
// `npm run build` first.

const REPO = fileURLToPath(new URL("..", import.meta.url));
const REPO_MODULES = join(REPO, "node_modules");
const DIST_TYPES = join(REPO, "dist", "index.d.ts");

/** The exports a merchant imports by name; any other export must be documented just the same. */
const NAMED_IMPORTS = `import {
  startPaysim, verifySignature, ConfigError, DatabaseInUseError, NewerDatabaseError, UnusableDatabaseError, InvalidDurationError,
  type StartPaysimOptions, type RunningPaysim, type PaysimConfig, type VerifyOptions, type PaysimFaultRule, type PaysimFaultRuleInput,
} from "paysim";
import type { CoverageReport, CoverageScope, PaysimCoverage } from "paysim";`;

const CONSUMER = `${NAMED_IMPORTS}
import * as everything from "paysim";

export type Everything = typeof everything;
const options: StartPaysimOptions = { timeScale: 60, db: ":memory:" };
const config: PaysimConfig = { companies: [{ name: "Acme", currency: "EUR", webhook_endpoints: [] }] };
// What the config accepts missing (currency, webhook_endpoints, enabled_events) a merchant may leave out.
export const minimal: PaysimConfig = { companies: [{ name: "Globex", webhook_endpoints: [{ url: "http://127.0.0.1:3000/hooks" }] }] };
const verify: VerifyOptions = { toleranceSeconds: 300 };
export async function run(): Promise<boolean> {
  const paysim: RunningPaysim = await startPaysim({ ...options, config });
  const now: Date = await paysim.clock.advance("1d");
  const reset: Promise<void> = paysim.reset();
  await reset;
  const rule: PaysimFaultRule = await paysim.faults.add({ fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 2 });
  const input: PaysimFaultRuleInput = { fault: "latency", latency_ms: 100, probability: 0.5, seed: 7 };
  await paysim.faults.add(input);
  await paysim.faults.clear();
  const own: CoverageReport = await paysim.coverage({ scope: "self" });
  const scope: CoverageScope = "all";
  const instances: number = (await paysim.coverage({ scope })).instances + own.instances;
  const coverage: PaysimCoverage = paysim.coverage;
  await coverage.clear();
  await paysim.close();
  const errors: Error[] = [new ConfigError("x"), new InvalidDurationError("x")];
  const classes = [DatabaseInUseError, NewerDatabaseError, UnusableDatabaseError];
  return verifySignature("{}", "t=1,v1=00", "whsec_x", verify) && now instanceof Date && errors.length + classes.length > 0 && rule.remaining === 2 && instances >= 0;
}

import { PaysimTimeoutError, type DeliveredWebhook, type EventFilter, type PaysimEvent, type WaitOptions, type WebhookFilter } from "paysim";
export async function waits(paysim: RunningPaysim): Promise<string> {
  const filter: EventFilter = { type: ["payment_intent.created"], objectId: "pi_1" };
  const wait: WaitOptions = { timeout: 100 };
  const events: PaysimEvent[] = await paysim.events.list(filter);
  const event: PaysimEvent = await paysim.events.waitFor(filter, wait);
  const webhook: WebhookFilter = { url: "http://127.0.0.1:9/hooks", status: "failed" };
  const { delivery }: DeliveredWebhook = await paysim.webhooks.waitFor(webhook);
  const code: number | null | undefined = delivery.attempts[0]?.status_code;
  const timedOut: Error = new PaysimTimeoutError("x");
  return \`\${events.length} \${event.type} \${delivery.status} \${code} \${timedOut.name}\`;
}
`;

/**
 * The packages a merchant's `npm install paysim @types/node` brings: paysim's runtime
 * dependencies, @types/node, and what they depend on (by the lockfile), never paysim's
 * devDependencies such as @types/better-sqlite3.
 */
function installedPackages(): string[] {
  type Entry = { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as { packages: Record<string, Entry> };
  const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const found = new Set<string>();
  const visit = (name: string) => {
    const entry = lock.packages[`node_modules/${name}`];
    if (found.has(name) || entry === undefined) return; // a nested copy is reached through its parent's own node_modules
    found.add(name);
    for (const next of Object.keys({ ...entry.dependencies, ...entry.peerDependencies })) visit(next);
  };
  for (const name of [...Object.keys(manifest.dependencies), "@types/node"]) visit(name);
  return [...found];
}

const thisFile = suiteScope();
let project: string;
let program: ts.Program;
beforeAll(() => {
  if (!existsSync(DIST_TYPES)) throw new Error(`${DIST_TYPES} is missing: run \`npm run build\` first.`);
  project = useTempDir("paysim-consumer-", thisFile);
  const modules = join(project, "node_modules");
  // The package itself: its package.json and dist/, without paysim's own node_modules beside them.
  const pkg = join(modules, "paysim");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), readFileSync(join(REPO, "package.json")));
  symlinkSync(join(REPO, "dist"), join(pkg, "dist"));
  mkdirSync(join(modules, "@types"), { recursive: true });
  for (const name of installedPackages()) {
    if (name.includes("/")) mkdirSync(join(modules, name.split("/")[0]!), { recursive: true });
    if (!existsSync(join(modules, name))) symlinkSync(join(REPO_MODULES, name), join(modules, name));
  }
  const file = join(project, "consumer.ts");
  writeFileSync(file, CONSUMER);
  program = ts.createProgram([file], {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    typeRoots: [join(modules, "@types")],
    // Resolve from the project's node_modules as laid out, never from the repository's (where the
    // symlinks point), which holds paysim's devDependencies.
    preserveSymlinks: true,
  });
});

describe("the published type declarations", () => {
  it("compile in a strict project with skipLibCheck false and only what a merchant installs", () => {
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => project, getNewLine: () => "\n" }));
    expect(diagnostics).toEqual([]);
  });

  it("are the package's own, not resolved through the repository's node_modules", () => {
    // TypeScript's own lib.*.d.ts come from the compiler that runs this test: they are not a dependency.
    const files = program
      .getSourceFiles()
      .filter((f) => !program.isSourceFileDefaultLibrary(f))
      .map((f) => f.fileName);
    expect(files.some((f) => f.endsWith("node_modules/paysim/dist/index.d.ts"))).toBe(true);
    expect(files.filter((f) => f.includes("better-sqlite3"))).toEqual([]);
    expect(files.filter((f) => f.startsWith(REPO_MODULES))).toEqual([]);
  });

  it("document every export with a JSDoc comment", () => {
    const checker = program.getTypeChecker();
    const index = program.getSourceFiles().find((f) => f.fileName.endsWith("node_modules/paysim/dist/index.d.ts"))!;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!);
    const undocumented = exports
      .map((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol))
      .filter((symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() === "")
      .map((symbol) => symbol.getName());
    expect(exports.length).toBeGreaterThan(5);
    expect(undocumented).toEqual([]);
  });
});
