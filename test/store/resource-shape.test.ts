import { Database } from "../../src/store/sqlite-driver.js";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { fieldsFor, resourceShape } from "../../src/store/resource-shape.js";

interface Row {
  id: string;
  amount: number;
  note: string | null;
  last4: string | null;
  brand: string | null;
}

const field = fieldsFor<Row, { base: string }>();
const shape = resourceShape({
  id: field.column("id", () => z.string()),
  object: field.constant("it's"),
  amount: field.column("amount", () => z.number().int()),
  note: field.column("note", () => z.string().nullable()),
  card: field.objectOrNull({ last4: "last4", brand: "brand" }),
  url: field.joined("base", "/o'k/", "id"),
});

const ROWS: Row[] = [
  { id: "a", amount: 100, note: null, last4: "4242", brand: "visa" },
  { id: "b", amount: 0, note: "", last4: null, brand: "visa" },
  { id: "c", amount: -5, note: `"quoted" \\ \u0001 \u2028 💳`, last4: "4242", brand: "" },
  { id: "d", amount: 2 ** 40, note: "x", last4: "", brand: null },
];

describe("resourceShape", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (seq INTEGER PRIMARY KEY, id TEXT, amount INTEGER, note TEXT, last4 TEXT, brand TEXT)");
  const insert = db.prepare("INSERT INTO t (id, amount, note, last4, brand) VALUES (@id, @amount, @note, @last4, @brand)");
  for (const row of ROWS) insert.run(row);
  const json = db.prepare(`SELECT ${shape.sqlJson} FROM t WHERE id = ?`).pluck();

  it.each(ROWS)("SQLite's JSON text of row $id is the text of the built resource, byte for byte", (row) => {
    const params = { base: "http://127.0.0.1:7420" };
    expect(json.get({ base: params.base }, row.id)).toBe(JSON.stringify(shape.build(row, params)));
  });

  it("builds the members in the list's order, with a card only when all its texts are non-empty", () => {
    const built = ROWS.map((row) => shape.build(row, { base: "B" }));
    expect(built.map((resource) => Object.keys(resource))).toEqual(ROWS.map(() => ["id", "object", "amount", "note", "card", "url"]));
    expect(built.map((resource) => resource.card)).toEqual([{ last4: "4242", brand: "visa" }, null, null, null]);
    expect(built[0]).toEqual({ id: "a", object: "it's", amount: 100, note: null, card: { last4: "4242", brand: "visa" }, url: "B/o'k/a" });
  });

  it("refuses a field or column name that is not a plain SQL identifier", () => {
    expect(() => resourceShape({ "a'b": field.column("id", () => z.string()) })).toThrow(/not a plain SQL identifier/);
    expect(() => resourceShape({ ["__proto__"]: field.column("id", () => z.string()) })).toThrow(/__proto__ cannot be a member/);
    expect(() => fieldsFor<Record<string, string>>().column("x; DROP TABLE t", () => z.string())).toThrow(/not a plain SQL identifier/);
  });

  it("has a schema, from the same list, that every built resource matches and that refuses a member more or less", () => {
    for (const row of ROWS) expect(shape.schema.safeParse(shape.build(row, { base: "http://127.0.0.1:7420" })).error).toBeUndefined();
    const built = shape.build(ROWS[0]!, { base: "http://127.0.0.1:7420" });
    expect(shape.schema.safeParse({ ...built, extra: 1 }).success).toBe(false);
    const { note: _note, ...withoutNote } = built;
    expect(shape.schema.safeParse(withoutNote).success).toBe(false);
    expect(shape.schema.safeParse({ ...built, card: { last4: "", brand: "visa" } }).success).toBe(false);
    expect(Object.keys(z.toJSONSchema(shape.schema).properties ?? {})).toEqual(["id", "object", "amount", "note", "card", "url"]);
  });
});
