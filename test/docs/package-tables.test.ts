// docs/install.md and docs/testing.md describe the package's exports, the options of startPaysim()
// and the members of what it resolves to. These tests read those lists and tables and compare them
// with the package's own type declarations (dist/index.d.ts: run `npm run build` first), so that
// an export, an option or a member added to the code and not to the pages fails here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DIST_TYPES = join(ROOT, "dist", "index.d.ts");
const page = (name: string) => readFileSync(join(ROOT, "docs", name), "utf8");

let checker: ts.TypeChecker;
let exported: Map<string, ts.Symbol>;
beforeAll(() => {
  if (!existsSync(DIST_TYPES)) throw new Error(`${DIST_TYPES} is missing: run \`npm run build\` first.`);
  const program = ts.createProgram([DIST_TYPES], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  checker = program.getTypeChecker();
  const index = program.getSourceFile(DIST_TYPES)!;
  exported = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(index)!).map((symbol) => [symbol.getName(), symbol]));
});

/** The property names of an exported interface or type. */
function membersOf(name: string): string[] {
  const symbol = exported.get(name);
  if (!symbol) throw new Error(`the package exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker
    .getDeclaredTypeOfSymbol(target)
    .getProperties()
    .map((property) => property.getName())
    .sort();
}

/** The lines of `text` from the heading `heading` to the next heading of its level or above. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no heading ${heading}`);
  const level = heading.split(" ")[0]!;
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

/** The first column of the markdown table whose header row starts with `| header |`, each cell's first code span. */
function tableColumn(text: string, header: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${header} |`));
  if (start === -1) throw new Error(`no table headed ${header}`);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(...[...line.split("|")[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
  }
  return rows;
}

/** `clock.advance(duration)` → `clock`; `faults.add(rule)` → `faults`; `url` → `url`. */
const topLevel = (names: string[]) => [...new Set(names.map((name) => name.split(/[.(]/)[0]!))].sort();

describe("docs/install.md's list of the package's exports", () => {
  it("names every export of the package, and nothing else", () => {
    const text = section(page("install.md"), "## The package's exports");
    const named = new Set([...text.matchAll(/`([A-Za-z]+)[`(]/g)].map((match) => match[1]!));
    const bulletHeads = text
      .split("\n")
      .filter((line) => line.startsWith("- `"))
      .map((line) => line.slice(3).split(/[`(]/)[0]!);
    expect([...exported.keys()].filter((name) => !named.has(name))).toEqual([]);
    expect(bulletHeads.filter((name) => !exported.has(name))).toEqual([]);
  });

  it("gives every member of RunningPaysim in its summary", () => {
    const line = section(page("install.md"), "## The package's exports")
      .split("\n- ")
      .find((item) => item.startsWith("`RunningPaysim`"))!;
    expect(topLevel([...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).slice(1))).toEqual(membersOf("RunningPaysim"));
  });
});

describe("docs/testing.md's tables", () => {
  it("list every option of startPaysim()", () => {
    expect(tableColumn(page("testing.md"), "option").sort()).toEqual(membersOf("StartPaysimOptions"));
  });

  it("list every member of what startPaysim() resolves to", () => {
    expect(topLevel(tableColumn(page("testing.md"), "field"))).toEqual(membersOf("RunningPaysim"));
  });
});
