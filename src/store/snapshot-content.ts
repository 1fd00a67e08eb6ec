import { maskText, maskValue } from "../domain/masking.js";
import { isSigningSecret } from "../domain/secret-keys.js";
import { UnusableDatabaseError } from "./errors.js";
import { COMPUTED_FORMS } from "./snapshot-checks.js";
import type { Migration } from "./schema.js";
import { openDatabase, type Db } from "./open.js";

/** One row of `sqlite_master`: what a schema is made of. */
interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

const SCHEMA_QUERY = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name";

/**
 * Refuses, naming the file and what differs, a snapshot whose schema is not exactly the one
 * paysim's migrations make at its `version`: every table, index, view and trigger, compared by
 * type, name, table and SQL text. A snapshot can then bring no trigger or view of its own (code
 * that would run on every later write), nor a table replaced, changed or missing.
 */
export function requireSchemaOf(db: Db, path: string, version: number, migrations: readonly Migration[]): void {
  const steps = migrations.filter((step) => step.version <= version);
  if (steps.at(-1)?.version !== version) {
    throw new UnusableDatabaseError(
      path,
      `The snapshot ${path} has schema version ${version}, which no paysim release made; paysim leaves it as it is. Pass a file written by a paysim snapshot.`,
    );
  }
  const reference = openDatabase(":memory:", steps);
  let expected: SchemaEntry[];
  try {
    expected = reference.prepare(SCHEMA_QUERY).all() as SchemaEntry[];
  } finally {
    reference.close();
  }
  const found = db.prepare(SCHEMA_QUERY).all() as SchemaEntry[];
  const differences = schemaDifferences(expected, found);
  if (differences.length === 0) return;
  const shown = differences.slice(0, 3).join("; ") + (differences.length > 3 ? `; and ${differences.length - 3} more` : "");
  throw new UnusableDatabaseError(
    path,
    `The snapshot ${path} does not have the schema of a paysim snapshot (version ${version}): ${shown}. ` +
      `paysim imports only the exact schema it writes, so nothing of it was imported. Pass a file written by a paysim snapshot.`,
  );
}

/** Code that runs of itself first, then what holds data, then what only speeds reads. */
const TYPE_ORDER = ["trigger", "view", "table", "index"];

function schemaDifferences(expected: readonly SchemaEntry[], found: readonly SchemaEntry[]): string[] {
  const key = (entry: SchemaEntry) => `${entry.type} ${entry.name}`;
  const wanted = new Map(expected.map((entry) => [key(entry), entry]));
  const present = new Map(found.map((entry) => [key(entry), entry]));
  const differences: { rank: number; text: string }[] = [];
  const add = (entry: SchemaEntry, text: string) => differences.push({ rank: TYPE_ORDER.indexOf(entry.type), text });
  for (const entry of found) {
    const own = wanted.get(key(entry));
    const what = `${entry.type} ${JSON.stringify(entry.name)}${entry.type === "table" ? "" : ` on ${JSON.stringify(entry.tbl_name)}`}`;
    if (own === undefined) add(entry, `it has ${entry.type === "index" ? "an" : "a"} ${what} that paysim's schema does not have`);
    else if (own.tbl_name !== entry.tbl_name || own.sql !== entry.sql) add(entry, `its ${what} is defined differently from paysim's`);
  }
  for (const entry of expected) {
    // The indexes of a missing table go without saying.
    if (present.has(key(entry)) || (entry.type === "index" && !present.has(`table ${entry.tbl_name}`))) continue;
    add(entry, `it lacks the ${entry.type} ${JSON.stringify(entry.name)}`);
  }
  return differences.sort((a, b) => a.rank - b.rank).map((difference) => difference.text);
}

/**
 * Text columns that hold values paysim computes itself, each with the exact form it writes
 * there: a SHA-256 digest, a signature header, a clock reading in milliseconds. Their long hex
 * or digit runs are not card numbers, and masking them would break the keys, replays and clock
 * they stand for; a value of any other form in them is masked like all other text.
 */
const COMPUTED_TEXT: Readonly<Record<string, (value: string, row: ReadonlyMap<string, unknown>) => boolean>> = {
  "api_keys.key_hash": (value) => COMPUTED_FORMS.sha256Hex.test(value),
  "idempotency_keys.key": (value) => COMPUTED_FORMS.sha256Hex.test(value),
  "idempotency_keys.fingerprint": (value) => value === "" || COMPUTED_FORMS.sha256Hex.test(value),
  "delivery_attempts.service_signature": (value) => COMPUTED_FORMS.signatureHeader.test(value),
  // The clock's rows (clock_offset_ms, clock_high_water_ms) only.
  "meta.value": (value, row) => /^\d+$/.test(value) && /^clock_[a-z_]+_ms$/.test(String(row.get("key"))),
};

/**
 * Text columns that hold a credential its owner chose (an endpoint's signing secret), with the
 * format it must have: one of that format is kept whatever its digits, as paysim keeps it on the
 * way in (docs/guarantees.md); masked, it would sign with another secret. A value of any other
 * form is masked like all other text, and the import's rules refuse it.
 */
const CREDENTIAL_TEXT: Readonly<Record<string, (value: string) => boolean>> = {
  "webhook_endpoints.secret": isSigningSecret,
};

/**
 * Text columns where a card number is refused rather than masked, as the API refuses it there: a
 * masked webhook URL would send deliveries to an address other than the one given.
 */
const REFUSED_IF_MASKED = new Set(["webhook_endpoints.url", "deliveries.url"]);

/**
 * Masks every card number the imported data holds, with the rule that applies to everything
 * paysim stores (docs/guarantees.md, "No card number at rest"): every text value of every table,
 * JSON text field by field. Refuses, naming the file, what cannot be masked in place: a binary
 * value (paysim stores none), a number long enough to be a card number outside the millisecond
 * columns, or a webhook URL holding one. Answers how many values it masked. Runs only once the schema is known to
 * be paysim's own, so no trigger fires on its writes.
 */
export function maskCardNumbersIn(db: Db, path: string): number {
  let masked = 0;
  const tables = db
    .prepare("SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; wr: number }[];
  db.transaction(() => {
    for (const { name: table, wr: withoutRowid } of tables) {
      const columns = db.prepare(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string; pk: number }[];
      const keys = withoutRowid ? columns.filter((column) => column.pk > 0).map((column) => column.name) : ["rowid"];
      const select = db.prepare(`SELECT ${[...keys, ...columns.map((column) => column.name)].map(quoted).join(", ")} FROM ${quoted(table)}`).raw();
      const changes: { column: string; value: string; key: unknown[] }[] = [];
      for (const row of select.iterate() as Iterable<unknown[]>) {
        const key = row.slice(0, keys.length);
        const named = new Map(columns.map((column, i) => [column.name, row[keys.length + i]]));
        columns.forEach((column, i) => {
          const value = row[keys.length + i];
          const place = `${table}.${column.name}`;
          if (typeof value === "string") {
            const kept = COMPUTED_TEXT[place]?.(value, named) || CREDENTIAL_TEXT[place]?.(value);
            const clean = kept ? value : maskStoredText(value);
            if (clean === value) return;
            if (REFUSED_IF_MASKED.has(place))
              throw unmaskable(
                path,
                `${place} holds a webhook URL with a card number in it (${clean}), which paysim refuses rather than send deliveries elsewhere`,
              );
            changes.push({ column: column.name, value: clean, key });
          } else if (Buffer.isBuffer(value)) {
            throw unmaskable(path, `${place} holds binary data, which paysim never stores`);
          } else if (typeof value === "number" && !column.name.endsWith("_ms") && maskValue(value) !== value) {
            throw unmaskable(path, `${place} holds the number ${maskText(String(value))}, long enough to be a card number`);
          }
        });
      }
      const where = keys.map((key) => `${quoted(key)} = ?`).join(" AND ");
      for (const change of changes) {
        try {
          db.prepare(`UPDATE ${quoted(table)} SET ${quoted(change.column)} = ? WHERE ${where}`).run(change.value, ...change.key);
        } catch (error) {
          if (!String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT")) throw error;
          throw unmaskable(path, `masking the card numbers in ${table}.${change.column} would make two of its rows alike`);
        }
      }
      masked += changes.length;
    }
  })();
  return masked;
}

/** A stored text with its card numbers masked: JSON field by field (as paysim masks a body), any other text as a whole. */
function maskStoredText(text: string): string {
  if (text.startsWith("{") || text.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return maskText(text);
    }
    const clean = JSON.stringify(maskValue(parsed));
    // Unchanged JSON keeps its own bytes: an event's body is sent byte for byte.
    return clean === JSON.stringify(parsed) ? text : clean;
  }
  return maskText(text);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function unmaskable(path: string, what: string): UnusableDatabaseError {
  return new UnusableDatabaseError(path, `The snapshot ${path} cannot be imported: ${what}. paysim leaves it as it is; nothing of it was imported.`);
}
