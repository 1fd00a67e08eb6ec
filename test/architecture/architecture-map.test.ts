import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAP = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** Every folder below src/, as a path relative to src/ ("server/routes"). */
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
