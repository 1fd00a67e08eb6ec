import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs|cjs|js)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

// The single executable's own code (scripts/executable/, scripts/build-executable.mjs) swaps modules
// at build time: the npm install neither ships it nor loads it, so it costs that install nothing.
describe("the single executable's code", () => {
  it("is neither loaded by the program nor shipped in the npm package", () => {
    const loaders = ["src", "bin"]
      .flatMap(sources)
      .filter((path) => /node:sea|scripts\/executable|build-executable/.test(readFileSync(join(ROOT, path), "utf8")));
    expect(loaders).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[]; dependencies: Record<string, string> };
    expect(manifest.files.filter((entry) => /scripts|executable/.test(entry))).toEqual([]);
    expect(Object.keys(manifest.dependencies)).not.toContain("postject");
  });
});
