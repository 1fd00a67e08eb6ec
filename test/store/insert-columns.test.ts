// A table's columns are written once, in its definition (store/table.ts). An INSERT that names
// them by hand (rowInserter's name them all, from the definition) is a second copy: this holds each
// to its table's definition. It names only columns the definition has, and each column it leaves
// out is listed here with what writes it instead, so a column added to a definition fails here
// until its INSERT writes it or this list says why it need not.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadResourceModules } from "../../src/resources/load.js";
import { TABLES } from "../../src/store/schema.js";

const SRC = new URL("../../src/", import.meta.url);

/** The columns an INSERT into each table may leave out, each with what writes it instead. */
const LEFT_OUT: Record<string, Record<string, string>> = {
  delivery_attempts: {
    status_code: "an attempt is written before its request goes out; finish() writes how it ended",
    error: "written by finish(), or by the restart that marks an attempt interrupted",
    duration_ms: "written by finish()",
    response_body: "written by finish()",
    service_signature: "written by finish(), once the request is signed and sent",
    finished: "0 by its default until finish() sets it",
  },
  fault_rules: { matched: "0 by its default: each matching request counts one (countMatch)" },
  webhook_endpoints: { deleted_at: "null until the endpoint is deleted (softDelete, retire)" },
};

/** Every INSERT with a column list written out, in the store's repositories and the resource folders' stores. */
function handWrittenInserts(): { file: string; table: string; columns: string[] }[] {
  const files = [
    ...readdirSync(new URL("store/repos/", SRC)).map((name) => `store/repos/${name}`),
    ...readdirSync(new URL("resources/", SRC), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => (readdirSync(new URL(`resources/${entry.name}/`, SRC)).includes("store.ts") ? [`resources/${entry.name}/store.ts`] : [])),
  ];
  return files.flatMap((file) =>
    [
      ...readFileSync(new URL(file, SRC), "utf8")
        .replace(/\s+/g, " ")
        .matchAll(/INSERT (?:OR \w+ )?INTO (\w+) \(([^)]*)\)/g),
    ].map((match) => ({
      file,
      table: match[1]!,
      columns: match[2]!.split(",").map((name) => name.trim()),
    })),
  );
}

describe("an INSERT written out by hand", async () => {
  const definitions = new Map(
    [...TABLES, ...(await loadResourceModules()).flatMap((module) => module.store?.tables ?? [])].map((table) => [table.name, table]),
  );
  const inserts = handWrittenInserts();

  it("is found in the stores (one per table that does not insert through rowInserter)", () => {
    expect(inserts.map((insert) => insert.table)).toEqual(expect.arrayContaining(["events", "deliveries", "webhook_endpoints", "fault_rules", "companies"]));
  });

  it.each(inserts.map((insert) => [`${insert.file}: ${insert.table}`, insert] as const))(
    "names its table's columns, and leaves out only those listed: %s",
    (_, insert) => {
      const definition = definitions.get(insert.table);
      expect(definition, `the definition of ${insert.table}`).toBeDefined();
      expect(
        insert.columns.filter((name) => !definition!.columnNames.includes(name)),
        "columns its definition does not have",
      ).toEqual([]);
      const unexplained = leftOutBy(insert).filter((name) => LEFT_OUT[insert.table]?.[name] === undefined);
      expect(unexplained, `columns of ${insert.table} it leaves out without a reason in LEFT_OUT`).toEqual([]);
    },
  );

  it("lists no reason for a column every INSERT writes: each entry of LEFT_OUT is one left out", () => {
    const stale = Object.entries(LEFT_OUT).flatMap(([table, columns]) =>
      Object.keys(columns)
        .filter((name) => !inserts.some((insert) => insert.table === table && leftOutBy(insert).includes(name)))
        .map((name) => `${table}.${name}`),
    );
    expect(stale).toEqual([]);
  });

  function leftOutBy(insert: { table: string; columns: string[] }): string[] {
    return definitions.get(insert.table)!.columnNames.filter((name) => name !== "seq" && !insert.columns.includes(name));
  }
});
