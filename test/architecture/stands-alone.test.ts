import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** This file, which holds the patterns it looks for. */
const THIS_FILE = relative(ROOT, fileURLToPath(import.meta.url));

/** The text files a reader of paysim gets: its code, its docs and its scripts. */
function readableFiles(): string[] {
  const below = (folder: string) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs|md)$/.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  return ["README.md", ...["src", "docs", "bench", "scripts", "bin", "test"].flatMap(below)].filter((file) => file !== THIS_FILE);
}

/** A section sign citing a document by number: "§7", "SPEC §12". An RFC's section ("RFC 9110 §11.1") names a public document. */
const SECTION_CITATION = /(?<!RFC \d{3,5} )§\s?\d/;

describe("paysim's code and docs stand on their own", () => {
  // The product contract they were written from is not part of the repository: a reader could not follow a citation of it.
  it("cite no section of a document outside the repository", () => {
    const citing = readableFiles().flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (SECTION_CITATION.test(line) || /\bSPEC\b/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  it("would catch a citation (the pattern bites)", () => {
    expect(SECTION_CITATION.test("answered (§7): an endpoint")).toBe(true);
    expect(SECTION_CITATION.test("see SPEC §12")).toBe(true);
    expect(SECTION_CITATION.test("case-insensitive (RFC 9110 §11.1)")).toBe(false);
  });
});
