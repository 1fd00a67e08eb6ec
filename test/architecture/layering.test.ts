import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { suiteScope, useTempDir } from "../helpers/disposables.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(ROOT, "node_modules", ".bin", "depcruise");
/** The trees are written while the file is collected, and removed after its last test. */
const thisFile = suiteScope();

/** Runs the repo's dependency rules over a tiny tree of `files` (path → source) and answers what it said. */
function cruise(files: Record<string, string>): { code: number | null; output: string } {
  const dir = useTempDir("paysim-layers-", thisFile);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", allowJs: true } }));
  const run = spawnSync(DEPCRUISE, ["--config", CONFIG, "src"], { cwd: dir, encoding: "utf8" });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

const importing = (target: string) => `import { x } from "${target}";\nexport const y = x;\n`;
const leaf = "export const x = 1;\n";

describe("the dependency check (npm run lint:deps)", () => {
  it("passes on paysim's own source", () => {
    const run = spawnSync(DEPCRUISE, ["--config", CONFIG, "src"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  // One tree holds a violation of every rule (each in files of its own) and one chain that goes
  // down the layers as it should: one run of the checker, then a look at what it named.
  const violations: { rule: string; from: string; files: Record<string, string> }[] = [
    {
      rule: "no-cycles",
      from: "src/services/cycle-a.ts",
      files: { "src/services/cycle-a.ts": importing("./cycle-b.js"), "src/services/cycle-b.ts": importing("./cycle-a.js") },
    },
    { rule: "domain-is-pure", from: "src/domain/impure.ts", files: { "src/domain/impure.ts": importing("../store/leaf-1.js"), "src/store/leaf-1.ts": leaf } },
    {
      rule: "store-only-domain",
      from: "src/store/upward.ts",
      files: { "src/store/upward.ts": importing("../runtime/leaf-2.js"), "src/runtime/leaf-2.ts": leaf },
    },
    {
      rule: "runtime-is-low",
      from: "src/runtime/upward.ts",
      files: { "src/runtime/upward.ts": importing("../services/leaf-3.js"), "src/services/leaf-3.ts": leaf },
    },
    { rule: "bus-owns-its-payloads", from: "src/bus.ts", files: { "src/bus.ts": importing("./store/leaf-4.js"), "src/store/leaf-4.ts": leaf } },
    {
      rule: "services-below-adapters",
      from: "src/services/upward.ts",
      files: { "src/services/upward.ts": importing("../webhooks/leaf-5.js"), "src/webhooks/leaf-5.ts": leaf },
    },
    {
      rule: "adapters-below-wiring",
      from: "src/server/upward.ts",
      files: { "src/server/upward.ts": importing("../cli/leaf-6.js"), "src/cli/leaf-6.ts": leaf },
    },
    {
      rule: "adapters-meet-in-services",
      from: "src/server/sideways.ts",
      files: { "src/server/sideways.ts": importing("../webhooks/leaf-11.js"), "src/webhooks/leaf-11.ts": leaf },
    },
    {
      rule: "cli-through-its-client",
      from: "src/cli/inside.ts",
      files: { "src/cli/inside.ts": importing("../services/leaf-12.js"), "src/services/leaf-12.ts": leaf },
    },
    {
      rule: "cli-through-its-client",
      from: "src/fixtures/inside.ts",
      files: { "src/fixtures/inside.ts": importing("../runtime/leaf-13.js"), "src/runtime/leaf-13.ts": leaf },
    },
    {
      rule: "services-take-their-config",
      from: "src/services/configured.ts",
      files: { "src/services/configured.ts": importing("../config.js"), "src/config.ts": leaf },
    },
    {
      rule: "checkout-apart-from-dashboard",
      from: "src/server/checkout/one.tsx",
      files: { "src/server/checkout/one.tsx": importing("../dashboard/leaf-14.js"), "src/server/dashboard/leaf-14.ts": leaf },
    },
    { rule: "ui-reads-the-bus", from: "src/ui/upward.ts", files: { "src/ui/upward.ts": importing("../store/leaf-7.js"), "src/store/leaf-7.ts": leaf } },
    {
      rule: "test-helpers-read-below",
      from: "src/testing/upward.ts",
      files: { "src/testing/upward.ts": importing("../server/leaf-9.js"), "src/server/leaf-9.ts": leaf },
    },
    {
      rule: "dashboard-pages-stand-alone",
      from: "src/server/dashboard/pages/one.tsx",
      files: { "src/server/dashboard/pages/one.tsx": importing("./two.js"), "src/server/dashboard/pages/two.tsx": leaf },
    },
    {
      rule: "resource-pages-stand-alone",
      from: "src/resources/leaf-18/page.tsx",
      files: { "src/resources/leaf-18/page.tsx": importing("../leaf-19/page.js"), "src/resources/leaf-19/page.tsx": leaf },
    },
    {
      rule: "checkout-apart-from-dashboard",
      from: "src/server/dashboard/pages/three.tsx",
      files: { "src/server/dashboard/pages/three.tsx": importing("../../checkout/leaf-10.js"), "src/server/checkout/leaf-10.ts": leaf },
    },
    {
      rule: "cli-types-from-definitions",
      from: "src/cli/schema-value.ts",
      files: { "src/cli/schema-value.ts": importing("../contracts/leaf-12.js"), "src/contracts/leaf-12.ts": leaf },
    },
    {
      rule: "cli-types-from-definitions",
      from: "src/cli/definition-value.ts",
      files: { "src/cli/definition-value.ts": importing("../server/operations/leaf-15.js"), "src/server/operations/leaf-15.ts": leaf },
    },
    {
      rule: "cli-types-from-definitions",
      from: "src/cli/folder-definition-value.ts",
      files: { "src/cli/folder-definition-value.ts": importing("../resources/leaf-17/operations.js"), "src/resources/leaf-17/operations.ts": leaf },
    },
    {
      rule: "cli-through-its-client",
      from: "src/cli/server-types.ts",
      files: {
        "src/cli/server-types.ts": 'import type { X } from "../server/leaf-16.js";\nexport type Y = X;\n',
        "src/server/leaf-16.ts": "export type X = number;\n",
      },
    },
    {
      rule: "contracts-are-schemas",
      from: "src/contracts/upward.ts",
      files: { "src/contracts/upward.ts": importing("../services/leaf-11.js"), "src/services/leaf-11.ts": leaf },
    },
    {
      rule: "shared-imports-nothing",
      from: "src/shared/upward.ts",
      files: { "src/shared/upward.ts": importing("../domain/leaf-8.js"), "src/domain/leaf-8.ts": leaf },
    },
  ];
  const downward = {
    "src/cli/down.ts": importing("../domain/down.js"),
    "src/cli/types-down.ts": 'import type { X } from "../contracts/types-down.js";\nexport type Y = X;\n',
    "src/contracts/types-down.ts": "export type X = number;\n",
    "src/cli/definition-types-down.ts": 'import type { X } from "../server/operations/types-down.js";\nexport type Y = X;\n',
    "src/server/operations/types-down.ts": "export type X = number;\n",
    "src/cli/folder-definition-types-down.ts": 'import type { X } from "../resources/down-folder/operations.js";\nexport type Y = X;\n',
    "src/resources/down-folder/operations.ts": "export type X = number;\n",
    "src/services/down.ts": importing("../contracts/down.js"),
    "src/contracts/down.ts": importing("../store/down.js"),
    "src/store/down.ts": importing("../domain/down.js"),
    "src/domain/down.ts": importing("../shared/down.js"),
    "src/shared/down.ts": leaf,
  };
  const run = cruise(Object.assign({}, downward, ...violations.map((v) => v.files)));

  it("fails on a tree that breaks its rules", () => {
    expect(run.code).not.toBe(0);
  });

  it.each(violations)("names $rule for $from", ({ rule, from }) => {
    expect(run.output).toMatch(new RegExp(`${rule}: ${from.replace(/[.]/g, "\\.")}`));
  });

  it("accepts imports that go down the layers", () => {
    expect(run.output).not.toMatch(/down\.ts/);
  });
});
