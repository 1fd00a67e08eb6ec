/** What `trigger` and `fixtures run` share: reading overrides, showing steps, turning run errors into exits. */
import { readFileSync } from "node:fs";
import { Option } from "commander";
import { FixtureError, StepFailedError, type Fixture } from "../fixtures/fixture.js";
import { applyOverrides, parseOverride, type Override } from "../fixtures/overrides.js";
import { runFixture, type StepResult } from "../fixtures/runner.js";
import { parseFixture } from "../fixtures/validate.js";
import { CliError, type ApiClient } from "./client.js";
import { paintStatus, table, text } from "./format.js";
import type { Output } from "./output.js";

function collectOverride(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--override step.field=value` of `trigger` and `fixtures run`, collected in order into `override`. */
export function overrideOption(): Option {
  return new Option(
    "--override <step.field=value>",
    "change a field of a step before running it (repeatable); the value is JSON when it parses, else text",
  ).argParser(collectOverride);
}

/** Parses every `--override`; a malformed one is a bad argument (exit 1). */
function parseOverrides(raw: readonly string[] | undefined): Override[] {
  try {
    return (raw ?? []).map(parseOverride);
  } catch (error) {
    throw asCliError(error);
  }
}

/**
 * The fixture at `path` with the `--override`s applied, checked again after them; a
 * malformed override, a missing file or a bad fixture is a bad argument (exit 1).
 */
export function loadFixture(path: string, rawOverrides: readonly string[] | undefined): Fixture {
  const overrides = parseOverrides(rawOverrides);
  try {
    return applyOverrides(parseFixture(readFixtureText(path), path), overrides, path);
  } catch (error) {
    throw asCliError(error);
  }
}

/** The objects a run made, one line per step. */
export function stepTable(results: readonly StepResult[]): string[] {
  return table(results, [
    { header: "STEP", value: (r) => r.label },
    { header: "CALL", value: (r) => `${r.method} ${r.path}` },
    { header: "HTTP", value: (r) => String(r.status) },
    { header: "OBJECT", value: (r) => text(r.response.id) },
    { header: "STATE", value: (r) => text(r.response.state ?? r.response.status), paint: paintStatus },
  ]);
}

/** Fixture and step failures are exit 1 with the step and field named. */
function asCliError(error: unknown): unknown {
  if (error instanceof FixtureError) return new CliError(`bad fixture: ${error.message}`);
  if (error instanceof StepFailedError) return new CliError(error.message);
  return error;
}

/** Reads a fixture file's text; a missing or unreadable file is a bad argument. */
function readFixtureText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === "ENOENT" ? `no fixture file at ${path}.` : `cannot read the fixture file ${path} (${code ?? (error as Error).message}).`);
  }
}

/**
 * Runs a fixture; when a step fails, the steps that did succeed are shown first
 * (their objects exist on the server now), then the failure becomes exit 1.
 */
export async function runSteps(fixture: Fixture, client: ApiClient, output: Output, asJson: boolean): Promise<StepResult[]> {
  const done: StepResult[] = [];
  try {
    return await runFixture(fixture, client, { onStep: (result) => done.push(result) });
  } catch (error) {
    if (!asJson && done.length > 0 && error instanceof StepFailedError) for (const line of stepTable(done)) output.line(line);
    throw asCliError(error);
  }
}

/** The --json shape of a run's steps. */
export function stepsJson(results: readonly StepResult[]): object[] {
  return results.map((r) => ({ step: r.label, method: r.method, path: r.path, status: r.status, response: r.response }));
}
