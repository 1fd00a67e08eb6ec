// What the docs and the code say of each other, kept true: the source paths, pages and sections
// that comments in src/ cite exist; every operation the API serves is in the route table of
// docs/api.md, and the README's names only served ones; every command has its heading in docs/cli.md; the served OpenAPI
// document has no component nothing refers to; the examples error messages suggest are accepted.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/main.js";
import { EVENT_TYPES } from "../../src/domain/events.js";
import { eventMatcher, webhookMatcher } from "../../src/testing/filters.js";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";
import { anchorsOf } from "./markdown-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

const SOURCES = readdirSync(join(ROOT, "src"), { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
  .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));

/** A source's text without its import and export-from lines, which the compiler already checks. */
const prose = (path: string) =>
  read(path)
    .split("\n")
    .filter((line) => !/^\s*(import|export)\b.*\bfrom\s/.test(line) && !/\bimport\(/.test(line))
    .join("\n");

/** Whether `cited` names a file from `citer`'s folder or any folder above it, up to the repository's root. */
function resolves(citer: string, cited: string): boolean {
  for (let folder = dirname(citer); ; folder = dirname(folder)) {
    if ([cited, cited.replace(/\.js$/, ".ts"), cited.replace(/\.js$/, ".tsx")].some((candidate) => existsSync(join(ROOT, folder, candidate)))) return true;
    if (folder === "." || folder === "") return false;
  }
}

/** The headings of a markdown page, as written. */
const headingsOf = (text: string) => [...text.matchAll(/^#{1,6}\s+(.*?)\s*$/gm)].map((match) => match[1]!);

describe("what comments in src/ cite", () => {
  it("names source files that exist (from the citing file's folder or one above it)", () => {
    const missing: string[] = [];
    for (const path of SOURCES) {
      for (const match of prose(path).matchAll(/(?<![\w/.@-])((?:[a-z][\w-]*\/)*[a-z][\w.-]*\.(?:ts|tsx|mjs|cjs))\b/g)) {
        if (!resolves(path, match[1]!)) missing.push(`${path}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names docs pages, anchors and sections that exist", () => {
    const missing: string[] = [];
    for (const path of SOURCES) {
      const text = prose(path);
      for (const match of text.matchAll(/docs\/([a-z-]+\.md)(#[a-z0-9-]+)?(?:,? "([^"]+)")?/g)) {
        const [cited, page, anchor, quoted] = match;
        // A section's name may wrap onto the comment's next line.
        const section = quoted?.replace(/\s*\n\s*\*?\s*/g, " ");
        if (!existsSync(join(ROOT, "docs", page!))) {
          missing.push(`${path}: ${cited}`);
          continue;
        }
        const markdown = read(`docs/${page}`);
        if (anchor && !anchorsOf(markdown).has(anchor.slice(1))) missing.push(`${path}: ${cited} (no such anchor)`);
        if (section && !headingsOf(markdown).some((heading) => heading.toLowerCase().includes(section.toLowerCase()))) {
          missing.push(`${path}: ${cited} (no heading holds "${section}")`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

/** `METHOD /path` of every route a markdown table lists in its first column, `:name` written `{}`. */
function routesOfTable(markdown: string, header: string): Set<string> {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith(header));
  expect(start, `a table headed ${header}`).toBeGreaterThanOrEqual(0);
  const routes = new Set<string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    let last: { methods: string[]; path: string } | undefined;
    for (const span of line.split(/(?<!\\)\|/)[1]!.matchAll(/`([^`]+)`/g)) {
      const text = span[1]!.split("?")[0]!;
      const full = /^([A-Z]+(?:\/[A-Z]+)*) (\/\S*)$/.exec(text);
      if (full) last = { methods: full[1]!.split("/"), path: full[2]! };
      else if (text.startsWith("…/") && last) last = { methods: last.methods, path: posix.join(posix.dirname(last.path), text.slice(2)) };
      else continue;
      for (const method of last.methods) routes.add(`${method} ${last.path.replace(/:[A-Za-z_]+|\{[A-Za-z_]+\}/g, "{}")}`);
    }
  }
  return routes;
}

describe("the operations the API serves", () => {
  let paysim: TestPaysim;
  let document: { paths: Record<string, Record<string, unknown>>; components: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    paysim = await startTestPaysim();
    document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
  });
  afterAll(() => paysim.dispose());

  const served = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`),
    );

  it("are each in docs/api.md's route table", () => {
    const listed = routesOfTable(read("docs/api.md"), "| method and path |");
    expect(served().filter((route) => !listed.has(route))).toEqual([]);
  });

  // The README shows the API at a glance and links docs/api.md for the whole of it: a new resource
  // needs no line there, but a route it names must be one paysim serves.
  it("are what the README's route table names, where it names /v1 routes", () => {
    const listed = [...routesOfTable(read("README.md"), "| method and path |")].filter((route) => / \/v1\//.test(route));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((route) => !served().includes(route))).toEqual([]);
  });

  it("are described by a document whose every component something refers to", () => {
    const text = JSON.stringify({ paths: document.paths, components: document.components });
    const unused: string[] = [];
    for (const [kind, members] of Object.entries(document.components)) {
      if (kind === "securitySchemes") continue;
      for (const name of Object.keys(members)) {
        if (!text.includes(`"#/components/${kind}/${name}"`)) unused.push(`${kind}/${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});

describe("docs/cli.md", () => {
  const headings = headingsOf(read("docs/cli.md")).filter((heading) => heading.startsWith("`paysim "));
  const commands = (buildProgram().commands as Command[]).map((command) => command.name());

  it.each(commands)("has a heading for paysim %s that names its subcommands", (name) => {
    const heading = headings.find((text) => text.startsWith(`\`paysim ${name}`) && /^[\s`|[<]/.test(text.slice(`\`paysim ${name}`.length)));
    expect(heading, `a heading \`paysim ${name} …\``).toBeDefined();
    const command = (buildProgram().commands as Command[]).find((candidate) => candidate.name() === name)!;
    for (const sub of command.commands as Command[]) expect(heading).toContain(sub.name());
  });
});

describe("docs/cli.md's paysim trigger", () => {
  it("names every event type, and no other, where it says which work", () => {
    const sentence = /^Every event type works: ([^]*?)\. Payouts/m.exec(read("docs/cli.md"))?.[1];
    expect(sentence, "the sentence `Every event type works: …`").toBeDefined();
    expect([...sentence!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((match) => match[1])).toEqual([...EVENT_TYPES]);
  });
});

describe("the example a filter's error message suggests", () => {
  const suggested = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      const example = /such as (\{.*?\}), or/.exec((error as Error).message)?.[1];
      expect(example, (error as Error).message).toBeDefined();
      return Function(`return (${example});`)() as unknown;
    }
    throw new Error("the bad filter was accepted");
  };

  it("is an events filter the events filter accepts", () => {
    expect(() => eventMatcher(suggested(() => eventMatcher(null)))).not.toThrow();
  });

  it("is a webhooks filter the webhooks filter accepts", () => {
    expect(() => webhookMatcher(suggested(() => webhookMatcher(null)))).not.toThrow();
  });
});
