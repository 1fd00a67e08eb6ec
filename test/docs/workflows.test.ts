// docs/testing.md's GitHub Actions workflows cannot run here, so they are checked as a reader's CI
// would take them: each parses as YAML into a workflow GitHub accepts the shape of (a trigger, jobs
// on a runner, steps that either use an action or run a command), installs with `npm ci`, and every
// `paysim` command it runs names a command and options the CLI has, with a command after `--`.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildProgram } from "../../src/cli/main.js";
import { readBlocks } from "./markdown-examples.js";

const PAGE = join(fileURLToPath(new URL("../../", import.meta.url)), "docs", "testing.md");
const WORKFLOWS = readBlocks(PAGE).filter((block) => block.lang === "yaml" && /^name: /.test(block.body));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: unknown;
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
}

/** The long options `paysim <command>` knows. */
function optionsOf(name: string): Set<string> {
  const command = (buildProgram().commands as Command[]).find((candidate) => candidate.name() === name);
  expect(command, `paysim has a command ${name}`).toBeDefined();
  return new Set(command!.options.map((option) => option.long).filter((long): long is string => long !== undefined));
}

describe("docs/testing.md's GitHub Actions workflows", () => {
  it("are there: one for a Node suite, one for a Python suite", () => {
    expect(WORKFLOWS.map((block) => (/setup-python/.test(block.body) ? "python" : "node")).sort()).toEqual(["node", "python"]);
  });

  it.each(WORKFLOWS.map((block) => [/setup-python/.test(block.body) ? "python" : "node", block] as const))(
    "the %s workflow parses and runs paysim as the CLI takes it",
    (_kind, block) => {
      const workflow = parse(block.body) as Workflow;
      expect(workflow.name).toEqual(expect.any(String));
      expect(workflow.on).toBeDefined();
      const steps = Object.values(workflow.jobs).flatMap((job) => {
        expect(job["runs-on"]).toEqual(expect.any(String));
        return job.steps;
      });
      for (const step of steps) expect(Number(step.uses !== undefined) + Number(step.run !== undefined), JSON.stringify(step)).toBe(1);
      expect(steps.map((step) => step.uses?.split("@")[0])).toEqual(expect.arrayContaining(["actions/checkout", "actions/setup-node"]));
      const runs = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
      expect(runs).toContain("npm ci");

      const paysimRuns = runs.filter((run) => /\bpaysim /.test(run));
      expect(paysimRuns.length).toBeGreaterThan(0);
      for (const run of paysimRuns) {
        const [own, command] = run.split(" -- ");
        const words = own!.replace(/^npx /, "").split(/\s+/);
        expect(words[0]).toBe("paysim");
        const known = optionsOf(words[1]!);
        for (const word of words.slice(2).filter((w) => w.startsWith("--"))) expect(known, `paysim ${words[1]} takes ${word}`).toContain(word);
        if (words[1] === "exec") expect(command?.trim(), `${run}: a command after --`).toBeTruthy();
      }
    },
  );
});
