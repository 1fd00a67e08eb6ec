import type { Db } from "./db.js";
import type { Migration } from "./migrations/migration.js";
import type { TableDefinition } from "./table.js";

/**
 * What a resource (resources/<collection>/) keeps in the store: the schema steps
 * that make its table, its repository, and the table's definition (store/table.ts), which says what
 * an imported snapshot's rows of it may hold.
 * The wiring adds the steps to MIGRATIONS (store/schema.ts) in version order, makes the repository
 * on first use and hands it to the resource's service, and adds the tables' rules to every import's.
 */
export interface ResourceStore<Repo> {
  /** Its schema steps; each version unique among all of paysim's (a test holds them so). */
  migrations: readonly Migration[];
  /** Its statements on `db`, prepared when made. */
  repo(db: Db): Repo;
  /** The definition of each table the steps make, after every table they reference (test/store/table-definitions.test.ts holds them to the steps). */
  tables: readonly TableDefinition[];
}

/** `migrations` with each resource's steps among them, in version order: the steps a database is opened with. */
export function withResourceMigrations(migrations: readonly Migration[], resources: readonly { store?: ResourceStore<unknown> }[]): Migration[] {
  return [...migrations, ...resources.flatMap((resource) => resource.store?.migrations ?? [])].sort((a, b) => a.version - b.version);
}
