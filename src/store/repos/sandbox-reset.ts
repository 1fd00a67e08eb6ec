import { byResetCount, RESET_COUNTED, RESOURCE_TABLES, type ResetCounts } from "../../domain/resources.js";
import type { Db } from "../db.js";

/** What a reset deleted: the counts the API answers, and the subjects whose in-memory jobs must go too. */
export interface ResetResult {
  deleted: ResetCounts;
  /** Ids of the deleted rows that scheduler jobs act on (JOB_SUBJECTS): the scheduler forgets their jobs. */
  jobSubjects: Set<string>;
}

/**
 * What a reset does with a table that is no resource's own (the resources' say in
 * domain/resources.ts): keeps it, deletes a company's rows by their `company_id`, or deletes the
 * jobs of the rows it deletes elsewhere. A table in neither place makes the reset refuse to run,
 * and the test of every table's reset rule names it.
 */
export const TABLE_RESETS: Readonly<Record<string, "kept" | "deleted" | "jobs">> = {
  meta: "kept",
  api_keys: "kept",
  idempotency_keys: "deleted",
  jobs: "jobs",
  sqlite_sequence: "kept",
};

/** The tables whose rows scheduler jobs act on (`jobs.subject_id`): a payout's drawn moves, a delivery's attempts. */
const JOB_SUBJECTS = ["deliveries", "payouts"] as const;

/** One table's deletion: its statement, and the tables it must go before (what it references, what its scope reads). */
interface Deletion {
  table: string;
  where: (scope: string) => string;
  before: readonly string[];
}

/**
 * Deletes the sandbox's activity of one company (or of every company, with null): the rows of
 * each table a reset deletes, children before the rows they reference, and the jobs of the
 * deleted payouts and deliveries. Companies, keys, endpoints and meta (the clock) stay. Which
 * tables go, and in what order, is read from the schema (its tables, `company_id` columns and
 * foreign keys) and the resource registry on the first reset, so a new table needs no line here.
 * Call it inside a transaction.
 */
export function createSandboxResetRepo(db: Db) {
  const deletions = resetPlan(db);
  // Two sets of statements rather than one `(? IS NULL OR company_id = ?)`: that OR keeps SQLite
  // from using the company indexes, so a one-company reset would scan every company's rows.
  const everyCompany = resetStatements(db, deletions, "1");
  const oneCompany = resetStatements(db, deletions, "company_id = @company");

  return {
    reset(companyId: string | null): ResetResult {
      const statements = companyId === null ? everyCompany : oneCompany;
      const params = companyId === null ? {} : { company: companyId };
      const jobSubjects = new Set<string>(statements.subjectIds.flatMap((select) => select.all(params) as string[]));
      const changes = new Map<string, number>();
      for (const { table, statement } of statements.deletes) changes.set(table, statement.run(params).changes);
      const deleted = byResetCount((collection) => changes.get(RESET_COUNTED.find((counted) => counted.collection === collection)!.table) ?? 0);
      return { deleted, jobSubjects };
    },
  };
}

function resetStatements(db: Db, deletions: readonly Deletion[], scope: string) {
  return {
    subjectIds: JOB_SUBJECTS.map((table) => db.prepare(`SELECT id FROM ${table} WHERE ${scope}`).pluck()),
    deletes: deletions.map(({ table, where }) => ({ table, statement: db.prepare(`DELETE FROM ${table} WHERE ${where(scope)}`) })),
  };
}

/** Why a table has no place in a reset: a message that says where to give it one. */
export class UnplannedTableError extends Error {}

/**
 * Every table a reset deletes from, in an order that deletes a row before any row it references:
 * a resource's table by the registry's say, any other by TABLE_RESETS. A table with `company_id`
 * is scoped by it; one without is scoped through its foreign key to a table that is (a delivery's
 * attempts through the delivery); the jobs through their subjects. `resourceTables` is the
 * registry's, unless a test passes others.
 */
export function resetPlan(db: Db, resourceTables: readonly { table: string; reset: string }[] = RESOURCE_TABLES): Deletion[] {
  const rules = new Map<string, "kept" | "deleted" | "jobs">(Object.entries(TABLE_RESETS));
  for (const { table, reset } of resourceTables) rules.set(table, reset === "kept" ? "kept" : "deleted");
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  const unplanned = tables.filter((table) => !rules.has(table));
  if (unplanned.length > 0) {
    throw new UnplannedTableError(
      `No reset rule for the table${unplanned.length === 1 ? "" : "s"} ${unplanned.join(", ")}: register the resource it holds in domain/resources.ts, or add it to TABLE_RESETS in store/repos/sandbox-reset.ts.`,
    );
  }
  const deleted = tables.filter((table) => rules.get(table) !== "kept");
  const scopes = new Map<string, Deletion>();
  const hasCompany = (table: string) => (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).includes("company_id");
  const keysOf = (table: string) => db.prepare(`SELECT "from", "table" FROM pragma_foreign_key_list(?)`).all(table) as { from: string; table: string }[];
  // A kept row that references a deleted one would make the reset fail on its foreign key, and only once such rows exist: refuse the plan now.
  for (const table of tables.filter((name) => rules.get(name) === "kept")) {
    const dangling = keysOf(table).find((key) => deleted.includes(key.table));
    if (dangling !== undefined)
      throw new UnplannedTableError(
        `The table ${table} is kept by a reset but references ${dangling.table} (${dangling.from}), which a reset deletes: delete ${table} too, or let it not reference ${dangling.table}.`,
      );
  }
  const subquery = (table: string, column: string, scope: string) => `${column} IN (SELECT id FROM ${table} WHERE ${scope})`;
  for (const table of deleted) {
    const keys = keysOf(table);
    const references = keys.map((key) => key.table);
    if (rules.get(table) === "jobs") {
      scopes.set(table, { table, where: (scope) => JOB_SUBJECTS.map((subject) => subquery(subject, "subject_id", scope)).join(" OR "), before: JOB_SUBJECTS });
    } else if (hasCompany(table)) {
      scopes.set(table, { table, where: (scope) => scope, before: references });
    } else {
      const parent = keys.find((key) => deleted.includes(key.table) && hasCompany(key.table));
      if (parent === undefined)
        throw new UnplannedTableError(
          `The table ${table} has no company_id and no foreign key to a table that has one: a reset cannot tell whose its rows are.`,
        );
      scopes.set(table, { table, where: (scope) => subquery(parent.table, parent.from, scope), before: references });
    }
  }
  return inDeletionOrder([...scopes.values()]);
}

/** `deletions` ordered so each comes before every table it must go before; a table stays in name order where nothing says otherwise. */
function inDeletionOrder(deletions: Deletion[]): Deletion[] {
  const ordered: Deletion[] = [];
  // Repeatedly take the first deletion no other remaining one must precede.
  let remaining = deletions;
  while (remaining.length > 0) {
    const next = remaining.find((candidate) => !remaining.some((other) => other !== candidate && other.before.includes(candidate.table)));
    if (next === undefined) throw new UnplannedTableError(`The reset cannot order ${remaining.map((d) => d.table).join(", ")}: their references form a cycle.`);
    ordered.push(next);
    remaining = remaining.filter((deletion) => deletion !== next);
  }
  return ordered;
}
