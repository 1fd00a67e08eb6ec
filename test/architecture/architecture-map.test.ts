import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAP = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** Every folder below src/, as a path relative to src/ ("server/checkout"). */
function folders(): string[] {
  return readdirSync(join(ROOT, "src"), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(join(ROOT, "src"), join(entry.parentPath, entry.name)))
    .sort();
}

describe("docs/architecture.md, the map of the source", () => {
  // A folder the map does not name is a part of paysim a contributor cannot find.
  it("has a row for every folder of src/ and names every folder below them", () => {
    const missing = folders().filter((folder) => {
      const name = folder.split("/").at(-1)!;
      const top = !folder.includes("/");
      return top ? !MAP.includes(`| \`src/${folder}/\` |`) : !MAP.includes(`\`${name}/\``) && !MAP.includes(`\`src/${folder}/\``);
    });
    expect(missing).toEqual([]);
  });
});

describe("docs/architecture.md's table of the bus", () => {
  it("has a row for every message src/bus.ts defines", () => {
    const bus = readFileSync(join(ROOT, "src", "bus.ts"), "utf8");
    const messages = [...bus.matchAll(/^ {2}"([a-z]+\.[a-z]+)": \[/gm)].map((match) => match[1]!);
    expect(messages.length).toBeGreaterThan(4);
    expect(messages.filter((message) => !MAP.includes(`| \`${message}\` |`))).toEqual([]);
  });
});

/** The lines of a markdown text outside its fenced blocks. */
const proseLines = (text: string) => {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*(```|~~~)/.test(line);
  });
};

/** The cells of a table row (`| a | b |`), trimmed; an escaped `\|` stays in its cell. */
const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** The backticked spans of a text. */
const spansOf = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/**
 * Whether a backticked span names a file or folder of the repository: a path with a slash, or a
 * file name with an extension the repository's files have. Placeholders (`<pid>`), globs, routes
 * (`/v1/…`) and anything with a space or a colon are not paths.
 */
const isPath = (span: string) => /^\.?[\w-]+(?:[./][\w.-]+)*\/?$/.test(span) && (span.includes("/") || /[\w-]\.(tsx?|m?js|cjs|json|md)$/.test(span));

/**
 * Each path the page names, with the folders it may be read from: the repository's root, src/ and
 * docs/, and in a table, the folders its row's first cell and its column's header name (a cell
 * under `store/` may say `repos/jobs.ts`).
 */
function pathsOf(text: string): { path: string; bases: string[]; line: string }[] {
  const found: { path: string; bases: string[]; line: string }[] = [];
  const folders = (cell: string | undefined) => spansOf(cell ?? "").filter((span) => span.endsWith("/") && isPath(span));
  let header: string[] | undefined;
  for (const line of proseLines(text)) {
    const row = line.trim().startsWith("|") ? cellsOf(line) : undefined;
    if (!row) header = undefined;
    else if (!header) header = row;
    const cells = row ?? [line];
    cells.forEach((cell, column) => {
      const bases = ["", "src", "docs"];
      if (row) bases.push(...folders(row[0]), ...folders(header![column]));
      for (const span of spansOf(cell)) if (isPath(span)) found.push({ path: span, bases, line: line.slice(0, 80) });
    });
  }
  return found;
}

/** The paths `text` names that exist in none of the folders they may be read from, each with the start of its line. */
function missingPaths(text: string): string[] {
  return pathsOf(text)
    .filter(({ path, bases }) => !bases.some((base) => existsSync(join(ROOT, base, path)) || existsSync(join(ROOT, "src", base, path))))
    .map(({ path, line }) => `${path} (in: ${line})`);
}

describe("docs/architecture.md's paths and rows", () => {
  it("names only files and folders that exist", () => {
    expect(pathsOf(MAP).length).toBeGreaterThan(100);
    expect(missingPaths(MAP)).toEqual([]);
  });

  it("reads a path in a table cell from its row's folder and its column's folder", () => {
    const table = ["| feature | `store/` `runtime/` |", "|---|---|", "| `src/webhooks/` | `repos/jobs.ts` `clock.ts` `outbox.ts` `nowhere.ts` |"].join("\n");
    expect(missingPaths(table)).toEqual(["nowhere.ts (in: | `src/webhooks/` | `repos/jobs.ts` `clock.ts` `outbox.ts` `nowhere.ts` |)"]);
  });

  // A row a newcomer reads at a glance: what does not fit belongs in the folder's own comments.
  it("keeps every table cell to 300 characters at most", () => {
    const long = proseLines(MAP)
      .filter((line) => line.trim().startsWith("|"))
      .flatMap(cellsOf)
      .filter((cell) => cell.length > 300);
    expect(long.map((cell) => `${cell.length}: ${cell.slice(0, 60)}…`)).toEqual([]);
  });
});

describe("the server's pages", () => {
  // tsconfig's jsx is React's, for the Ink live view; a server page compiled with it would import
  // React into the server and render nothing hono can send.
  it("are hono/jsx: every .tsx file under src/server/ opens with the hono/jsx pragma", () => {
    const pages = readdirSync(join(ROOT, "src", "server"), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".tsx"))
      .map((entry) => join(entry.parentPath, entry.name));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((path) => !readFileSync(path, "utf8").startsWith("/** @jsxImportSource hono/jsx */\n")).map((path) => relative(ROOT, path))).toEqual(
      [],
    );
  });
});
