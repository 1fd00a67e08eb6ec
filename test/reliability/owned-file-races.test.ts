import { lstatSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonFileKind, OwnedFileError, writeOwnedFile, writeRefusal } from "../../src/shared/owned-file.js";
import { useTempDir } from "../helpers/disposables.js";

// The writer every file paysim writes besides its database goes through. The CLI's attacks are in
// test/cli/output-file-targets.test.ts; here, a file that changes between the check and the write:
// the content callback runs after the check and before the file is put in place, so another
// program acting there is acted out by it.

const REPORT = jsonFileKind("coverage report", "coverage");
const report = (n: number) => Buffer.from(JSON.stringify({ object: "coverage", n }));

describe("writeOwnedFile", () => {
  it("a file of the user's made at a free path between the check and the write is kept, and nothing is left beside it", async () => {
    const dir = useTempDir("paysim-owned-file-");
    const path = join(dir, "coverage.json");
    const error = await writeOwnedFile(
      path,
      REPORT,
      () => {
        writeFileSync(path, "mine\n", { mode: 0o640 });
        return report(1);
      },
      [],
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnedFileError);
    expect((error as Error).message).toBe(
      `Cannot write the coverage report ${path}: it is not JSON, so not a coverage report paysim wrote; paysim left it as it is. Choose another path for the coverage report.`,
    );
    expect(readFileSync(path, "utf8")).toBe("mine\n");
    expect(lstatSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["coverage.json"]);
  });

  it("an earlier report swapped for a file of the user's between the check and the write is put back, untouched", async () => {
    const dir = useTempDir("paysim-owned-file-");
    const path = join(dir, "coverage.json");
    await writeOwnedFile(path, REPORT, () => report(1), []);
    const error = await writeOwnedFile(
      path,
      REPORT,
      () => {
        // What another program does: a new file of its own renamed over the report paysim judged.
        writeFileSync(join(dir, "theirs"), JSON.stringify({ object: "coverage", forged: true }), { mode: 0o600 });
        renameSync(join(dir, "theirs"), path);
        return report(2);
      },
      [],
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `Cannot write the coverage report ${path}: it changed while paysim was writing it (another program put a file there); paysim left it as it is. Choose another path for the coverage report.`,
    );
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ object: "coverage", forged: true });
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["coverage.json"]);
  });

  it("replaces an earlier report of its kind, and judges a kept file by its inode whatever the path", async () => {
    const dir = useTempDir("paysim-owned-file-");
    const path = join(dir, "coverage.json");
    await writeOwnedFile(path, REPORT, () => report(1), []);
    await writeOwnedFile(path, REPORT, () => report(2), []);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ object: "coverage", n: 2 });
    expect(writeRefusal(join(dir, "x", "..", "coverage.json"), REPORT, [{ path, role: "the config file (--config)" }])?.message).toMatch(
      /: it is the config file \(--config\);/,
    );
  });
});
