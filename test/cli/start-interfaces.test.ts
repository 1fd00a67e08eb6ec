import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useCli, useTempDir } from "../helpers/disposables.js";

const CLI_MD = fileURLToPath(new URL("../../docs/cli.md", import.meta.url));

/**
 * The tables of docs/cli.md's "What a background run tells other programs": for each, its rows'
 * field (the first cell) and the other names the row shows in backticks (the fields inside it).
 */
function documentedTables(): { field: string; inside: string[] }[][] {
  const text = readFileSync(CLI_MD, "utf8");
  const start = text.indexOf("### What a background run tells other programs");
  expect(start, "docs/cli.md's section on background runs").toBeGreaterThan(0);
  const section = text.slice(start, text.indexOf("\n## ", start));
  const tables: { field: string; inside: string[] }[][] = [];
  let current: { field: string; inside: string[] }[] | undefined;
  for (const line of section.split("\n")) {
    const row = /^\| `([a-z_]+)` \|(.*)\|$/.exec(line);
    if (!row) {
      if (!line.startsWith("|")) current = undefined;
      continue;
    }
    if (!current) tables.push((current = []));
    const inside = [...row[2]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
    current.push({ field: row[1]!, inside });
  }
  return tables;
}

describe("docs/cli.md's interfaces of a background run", () => {
  it("the --json start line and .paysim/instances/<pid>.json hold exactly the documented fields", async () => {
    const [startedTable, fileTable] = documentedTables();
    expect(startedTable?.map((row) => row.field)).toContain("companies");
    expect(fileTable?.map((row) => row.field)).toContain("pid");

    const dir = useTempDir("paysim-cli-interfaces-");
    const cli = useCli(["start", "--db", ":memory:", "--port", "0", "--json", "--forward-to", "http://127.0.0.1:9/hooks"], { cwd: dir });
    const [first] = await cli.waitFor(/^.*\n/);
    const started = JSON.parse(first!);
    expect(Object.keys(started).sort()).toEqual(startedTable!.map((row) => row.field).sort());
    expect(started.type).toBe("started");
    const company = started.companies[0];
    const companyFields = [...Object.keys(company), ...Object.keys(company.webhook_endpoints[0])];
    expect(startedTable!.find((row) => row.field === "companies")!.inside.sort()).toEqual([...new Set(companyFields)].sort());

    const file = JSON.parse(readFileSync(join(dir, ".paysim", "instances", `${cli.child.pid}.json`), "utf8"));
    expect(Object.keys(file).sort()).toEqual(fileTable!.map((row) => row.field).sort());
    expect(file).toMatchObject({ url: started.url, secret_key: company.secret_key, db: ":memory:", pid: cli.child.pid });
    expect(Object.keys(file.webhook_endpoints[0]).sort()).toEqual(fileTable!.find((row) => row.field === "webhook_endpoints")!.inside.sort());
    expect((await cli.stop("SIGTERM")).code).toBe(0);
  });
});
