import { existsSync, linkSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPaysim } from "../../src/paysim.js";
import { runCli, startCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import { fileTree } from "../helpers/file-tree.js";

// Issue 38 item 1: `paysim exec --coverage shop.db` wrote a JSON report over the database (and over
// the imported snapshot, the export target, the config, through links). Every file paysim writes
// besides its database now goes through one writer: each attack below is refused, naming the path
// and why, before the command runs, and leaves every file as it was, bytes and mode.
// The child-process tests run the real binary (dist/): run `npm run build` first.

const folder = () => useTempDir("paysim-output-targets-");

/** A stopped paysim's database holding one payment intent, and an earlier snapshot of it. */
async function shop(dir: string): Promise<void> {
  const paysim = await createPaysim({ port: 0, db: join(dir, "shop.db") });
  await paysim.snapshot(join(dir, "orders.snapshot"));
  await paysim.close();
  writeFileSync(join(dir, "paysim.config.json"), JSON.stringify({ companies: [{ name: "Shop" }] }));
  writeFileSync(join(dir, "notes.json"), JSON.stringify({ object: "list", notes: ["mine"] }));
  writeFileSync(join(dir, "notes.txt"), "mine\n");
}

const COMMAND = ["--", process.execPath, "-e", "console.log('ran')"];

const refusals: [string, (dir: string) => string[], RegExp][] = [
  ["onto the database in use", () => ["--db", "shop.db", "--coverage", "shop.db"], /coverage report shop\.db: it is the database in use \(--db\)/],
  ["onto the database through ..", (dir) => ["--db", "shop.db", "--coverage", join(dir, "sub", "..", "shop.db")], /it is the database in use \(--db\)/],
  ["onto the database given through ..", () => ["--db", "./sub/../shop.db", "--coverage", "shop.db"], /it is the database in use \(--db\)/],
  [
    "onto a hard link of the database",
    (dir) => {
      linkSync(join(dir, "shop.db"), join(dir, "shop-link.json"));
      return ["--db", "shop.db", "--coverage", "shop-link.json"];
    },
    /coverage report shop-link\.json: it is the database in use \(--db\)/,
  ],
  [
    "onto the -wal beside the database",
    () => ["--db", "shop.db", "--coverage", "shop.db-wal"],
    /coverage report shop\.db-wal: it is a file SQLite keeps beside the database in use/,
  ],
  [
    "onto the imported snapshot",
    () => ["--import", "orders.snapshot", "--coverage", "orders.snapshot"],
    /it is the snapshot paysim started from \(--import\), which it only reads/,
  ],
  [
    "onto the export target",
    () => ["--export-on-exit", "orders.snapshot", "--coverage", "orders.snapshot"],
    /it is the target of the snapshot written on exit \(--export-on-exit\)/,
  ],
  [
    "onto an export target not made yet",
    () => ["--export-on-exit", "after.snapshot", "--coverage", "after.snapshot"],
    /coverage report after\.snapshot: it is the target of the snapshot written on exit/,
  ],
  ["onto the config", () => ["--config", "paysim.config.json", "--coverage", "paysim.config.json"], /it is the config file \(--config\)/],
  [
    "through a symbolic link to a file of the user's",
    (dir) => {
      symlinkSync(join(dir, "notes.txt"), join(dir, "coverage.json"));
      return ["--coverage", "coverage.json"];
    },
    /coverage report coverage\.json: it is a symbolic link, and paysim does not follow links/,
  ],
  [
    "through a symbolic link to the database",
    (dir) => {
      symlinkSync(join(dir, "shop.db"), join(dir, "db-link"));
      return ["--db", "db-link", "--coverage", "shop.db"];
    },
    /it is the database in use \(--db\)/,
  ],
  ["onto a text file", () => ["--coverage", "notes.txt"], /coverage report notes\.txt: it is not JSON, so not a coverage report paysim wrote/],
  ["onto JSON of another kind", () => ["--coverage", "notes.json"], /it is not a coverage report paysim wrote \(its JSON has no "object": "coverage"\)/],
  ["onto a snapshot", () => ["--coverage", "orders.snapshot"], /coverage report orders\.snapshot: it is not JSON/],
  [
    "a snapshot export onto the config",
    () => ["--config", "paysim.config.json", "--export-on-exit", "paysim.config.json"],
    /snapshot paysim\.config\.json: it is the config file/,
  ],
  [
    "a snapshot export onto the import",
    () => ["--import", "orders.snapshot", "--export-on-exit", "orders.snapshot"],
    /snapshot orders\.snapshot: it is the snapshot paysim started from/,
  ],
  ["a snapshot export onto JSON", () => ["--export-on-exit", "notes.json"], /snapshot notes\.json: it is not a paysim snapshot \(not a SQLite file\)/],
  [
    "a coverage report whose name leaves no room for its temporary name",
    () => ["--coverage", `${"r".repeat(245)}.json`],
    /coverage report r{245}\.json: it has a name too long for the temporary file paysim writes beside it \(250 bytes; at most 205 can be written this way\)/,
  ],
  [
    "a snapshot export whose name leaves no room for its temporary name",
    () => ["--export-on-exit", `${"é".repeat(103)}.db`],
    /snapshot é{103}\.db: it has a name too long for the temporary file paysim writes beside it \(209 bytes; at most 205/,
  ],
];

describe("paysim exec writes a coverage report or a snapshot only where paysim may", () => {
  it.each(refusals)("%s: refused before the command runs, exit 1, every file untouched", async (_, args, reason) => {
    const dir = folder();
    await shop(dir);
    const given = args(dir);
    const before = fileTree(dir);
    const result = await runCli(["exec", ...given, ...COMMAND], { cwd: dir });
    expect(result.stdout).toBe("");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toMatch(/paysim left it as it is\. Choose another path for the (coverage report|snapshot); the command was not run\.\n$/);
    expect(result.stderr.split("\n")).toHaveLength(2); // one line
    expect(fileTree(dir)).toEqual(before);
  });

  it("paysim start --export-on-exit onto the config: refused before it serves, exit 1, the config untouched", async () => {
    const dir = folder();
    await shop(dir);
    const before = fileTree(dir);
    const result = await runCli(["start", "--no-ui", "--db", ":memory:", "--config", "paysim.config.json", "--export-on-exit", "paysim.config.json"], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^paysim: Cannot write the snapshot paysim\.config\.json: it is the config file \(--config\)/);
    expect(fileTree(dir)).toEqual(before);
  });

  it("writes a report whose name is the longest its temporary name leaves room for, and leaves nothing beside it", async () => {
    const dir = folder();
    const name = `${"r".repeat(200)}.json`;
    // Twice: the second replaces the first, moving it aside under the longest name paysim makes.
    for (const _ of [1, 2]) {
      const result = await runCli(["exec", "--coverage", name, "--report", name.replace(/^r/, "s"), ...COMMAND], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(readdirSync(dir).sort()).toEqual([name, name.replace(/^r/, "s")]);
  });

  it("replaces its own earlier coverage report, and an empty file", async () => {
    const dir = folder();
    writeFileSync(join(dir, "empty.json"), "");
    for (const target of ["coverage.json", "coverage.json", "empty.json"]) {
      const result = await runCli(["exec", "--coverage", target, ...COMMAND], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, target), "utf8")).object).toBe("coverage");
    }
    expect(readdirSync(dir).sort()).toEqual(["coverage.json", "empty.json"]);
  });

  it("a file the command puts at the path meanwhile is judged again when the report is written, and kept", async () => {
    const dir = folder();
    await shop(dir);
    // Checked before the command runs (nothing there), then the command puts a link to the database there.
    const link = `require("node:fs").symlinkSync("shop.db", "coverage.json")`;
    const linked = await runCli(["exec", "--coverage", "coverage.json", "--", process.execPath, "-e", link], { cwd: dir });
    expect(linked.code).toBe(0); // the command's status, as documented
    expect(linked.stderr).toMatch(/^paysim: Cannot write the coverage report coverage\.json: it is a symbolic link/m);
    expect(lstatSync(join(dir, "coverage.json")).isSymbolicLink()).toBe(true);

    // An export target the command fills with a file of its own: kept, and a passing run fails.
    const before = readFileSync(join(dir, "shop.db"));
    const copy = `require("node:fs").copyFileSync("notes.txt", "after.snapshot")`;
    const exported = await runCli(["exec", "--export-on-exit", "after.snapshot", "--", process.execPath, "-e", copy], { cwd: dir });
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/^paysim: Cannot write the snapshot after\.snapshot: it is not a paysim snapshot/m);
    expect(readFileSync(join(dir, "after.snapshot"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(dir, "shop.db"))).toEqual(before);
  });

  it("two paysim racing for one report path: each writes a whole report, one after the other, and nothing is left beside it", async () => {
    const dir = folder();
    // Each command says it runs (both passed the check with nothing at the path), then waits for "go".
    const wait = `const fs = require("node:fs"); fs.writeFileSync("ready-" + process.argv[1], ""); const t = setInterval(() => { if (fs.existsSync("go")) { clearInterval(t); } }, 10);`;
    const runs = ["1", "2"].map((n) =>
      startCli(["exec", "--coverage", "coverage.json", "--export-on-exit", "after.snapshot", "--", process.execPath, "-e", wait, n], { cwd: dir }),
    );
    await Promise.race([
      Promise.all(runs.map((run) => run.exit)).then(() => {
        throw new Error("a run ended before go");
      }),
      new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (existsSync(join(dir, "ready-1")) && existsSync(join(dir, "ready-2"))) {
            clearInterval(check);
            resolve();
          }
        }, 10);
      }),
    ]);
    writeFileSync(join(dir, "go"), "");
    const results = await Promise.all(runs.map((run) => run.exit));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^paysim: coverage: operations/m);
    }
    expect(JSON.parse(readFileSync(join(dir, "coverage.json"), "utf8")).object).toBe("coverage");
    expect(readFileSync(join(dir, "after.snapshot")).subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
    expect(readdirSync(dir).sort()).toEqual(["after.snapshot", "coverage.json", "go", "ready-1", "ready-2"]);
  });
});
