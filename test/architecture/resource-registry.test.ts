import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, MACHINES, RESOURCES, RESOURCE_TABLES, RESET_COUNTED, dashboardPathOf } from "../../src/domain/resources.js";
import { servedOperations } from "../../src/server/operations/index.js";
import { SNAPSHOT_SOURCES } from "../../src/paysim.js";
import { MIGRATIONS, snapshotRules } from "../../src/store/schema.js";
import { resetPlan, UnplannedTableError } from "../../src/store/repos/sandbox-reset.js";
import { createStore } from "../../src/store/index.js";
import { useDatabase } from "../helpers/disposables.js";
import { loadResourceModules } from "../../src/resources/load.js";
import { withResourceMigrations } from "../../src/store/resource-store.js";
import { checkSnapshotRows } from "../../src/store/snapshot-rows.js";
import { NAV } from "../../src/server/dashboard/nav.js";

/** The folders of the resources, each with its definition and its module. */
const RESOURCE_FOLDERS = new URL("../../src/resources/", import.meta.url);

/**
 * The pieces of a resource that no compiler sees (SQL, files, routes), each checked against the
 * resource registry (src/domain/resources.ts) by a test named for the piece a new resource could
 * forget. What the compiler sees (a reset count, a machine's coverage, the services, the
 * operations of each resource) is not repeated here.
 */
const tablesOf = (db: ReturnType<typeof useDatabase>) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];

describe("the resource registry", () => {
  it("a migration file left out of MIGRATIONS: every file in store/migrations is listed, in order", () => {
    const files = readdirSync(new URL("../../src/store/migrations/", import.meta.url)).filter((name) => /^\d{3}-.+\.ts$/.test(name));
    const listed = MIGRATIONS.map((migration) => migration.version);
    expect(listed).toEqual(files.map((name) => Number(name.slice(0, 3))).sort((a, b) => a - b));
  });

  it("a resource whose table the migrations never make: every registered table exists", async () => {
    const tables = tablesOf(useDatabase(":memory:", withResourceMigrations(MIGRATIONS, await loadResourceModules())));
    for (const { table } of RESOURCE_TABLES) expect(tables, `the table ${table}`).toContain(table);
  });

  it("a resource folder left out of the registry: each folder's definition is registered, under its collection", async () => {
    const folders = readdirSync(RESOURCE_FOLDERS, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    for (const folder of folders) {
      const exported = Object.values((await import(new URL(`${folder.name}/resource.ts`, RESOURCE_FOLDERS).href)) as Record<string, unknown>);
      const registered = Object.values(RESOURCES) as unknown[];
      const definition = exported.find((value) => registered.includes(value)) as { collection: string } | undefined;
      expect(definition, `resources/${folder.name}/resource.ts's definition in resources/index.ts`).toBeDefined();
      expect(definition!.collection.replaceAll("_", "-"), `the folder of ${definition!.collection}`).toBe(folder.name);
    }
    expect(Object.keys(RESOURCES)).toHaveLength(folders.length);
  });

  it("a module.ts its definition does not link: each folder with one has it loaded, as its definition's own", async () => {
    const modules = await loadResourceModules();
    const withModule = readdirSync(RESOURCE_FOLDERS).filter((name) => existsSync(new URL(`${name}/module.ts`, RESOURCE_FOLDERS)));
    expect(modules.map((module) => module.definition.collection.replaceAll("_", "-")).sort()).toEqual(withModule.sort());
  });

  it("a resource's part left in a layer's folder: no file of the layers' folders is named for a resource", () => {
    const kebab = (name: string) => name.replaceAll(/[_ ]/g, "-");
    const names = new Set(
      Object.values(RESOURCES as Record<string, { noun: string; collection: string; table: string | null }>).flatMap((resource) => [
        kebab(resource.noun),
        kebab(`${resource.noun}s`),
        kebab(resource.collection),
        ...(resource.table === null ? [] : [kebab(resource.table)]),
      ]),
    );
    const layers = ["contracts", "store/repos", "services", "server/operations", "server/dashboard/pages"];
    const misplaced = layers.flatMap((layer) =>
      readdirSync(new URL(`../../src/${layer}/`, import.meta.url))
        .filter((file) => names.has(file.replace(/\.tsx?$/, "")))
        .map((file) => `${layer}/${file}`),
    );
    expect(names).toContain("webhook-endpoints");
    expect(misplaced, "in resources/<collection>/ (contract.ts, store.ts, service.ts, operations.ts, page.tsx)").toEqual([]);
  });

  it("a resource with a state machine whose creation is not served: POST /v1/<collection> is an operation of the app", async () => {
    const served = servedOperations(
      () => {
        throw new Error("no report is asked for here");
      },
      await loadResourceModules(),
    ).map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
    for (const machine of MACHINES) expect(served, `the creation of ${machine}`).toContain(`POST /v1/${RESOURCES[machine].collection}`);
  });

  it("a module's schema step numbered as another's: every version is paysim's one step of that number", async () => {
    const versions = withResourceMigrations(MIGRATIONS, await loadResourceModules()).map((migration) => migration.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("a module's table without import rules: every table and column of the whole schema has one", async () => {
    const modules = await loadResourceModules();
    const db = useDatabase(":memory:", withResourceMigrations(MIGRATIONS, modules));
    expect(() =>
      checkSnapshotRows(
        db,
        "(the whole schema)",
        snapshotRules(
          SNAPSHOT_SOURCES,
          modules.flatMap((module) => module.store?.tables ?? []),
        ),
      ),
    ).not.toThrow();
  });

  it("a table without its reset rule: the reset refuses to run and names it", () => {
    const db = useDatabase(":memory:");
    expect(() => resetPlan(db)).not.toThrow();
    db.exec("CREATE TABLE refunds (id TEXT PRIMARY KEY, amount INTEGER NOT NULL)");
    expect(() => resetPlan(db)).toThrow(UnplannedTableError);
    expect(() => resetPlan(db)).toThrow(/No reset rule for the table refunds: register the resource it holds in domain\/resources\.ts/);
  });

  it("a kept table that references a deleted one: the reset refuses to run and names both", () => {
    const db = useDatabase(":memory:");
    db.exec("CREATE TABLE refund_rules (id TEXT PRIMARY KEY, payout_id TEXT REFERENCES payouts(id))");
    // Registered as kept, as a new resource's entry could say; its rows would block deleting payouts.
    const plan = () => resetPlan(db, [...RESOURCE_TABLES, { table: "refund_rules", reset: "kept" }]);
    expect(plan).toThrow(UnplannedTableError);
    expect(plan).toThrow(/The table refund_rules is kept by a reset but references payouts \(payout_id\), which a reset deletes/);
  });

  it("a new company's table needs no reset line: one with company_id is deleted by it, its children through their foreign key, before it", () => {
    const db = useDatabase(":memory:");
    db.exec(`CREATE TABLE refunds (id TEXT PRIMARY KEY, company_id TEXT NOT NULL REFERENCES companies(id));
             CREATE TABLE refund_notes (id TEXT PRIMARY KEY, refund_id TEXT NOT NULL REFERENCES refunds(id))`);
    // Registered as a resource the reset deletes, as a new resource's entry would say.
    const plan = resetPlan(db, [...RESOURCE_TABLES, { table: "refunds", reset: "deleted" }, { table: "refund_notes", reset: "deleted" }]);
    const order = plan.map((deletion) => deletion.table);
    expect(order.indexOf("refund_notes")).toBeLessThan(order.indexOf("refunds"));
    expect(plan.find((deletion) => deletion.table === "refund_notes")!.where("company_id = @company")).toBe(
      "refund_id IN (SELECT id FROM refunds WHERE company_id = @company)",
    );
  });

  it("a reset order that breaks a foreign key: every table goes before the tables it references, and the jobs before their subjects", async () => {
    // The whole schema, the resource modules' tables with it: one of them kept but referencing a deleted one refuses the plan here.
    const db = useDatabase(":memory:", withResourceMigrations(MIGRATIONS, await loadResourceModules()));
    const order = resetPlan(db).map((deletion) => deletion.table);
    for (const table of order) {
      const references = db.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).pluck().all(table) as string[];
      for (const parent of references.filter((name) => order.includes(name)))
        expect(order.indexOf(table), `${table} before ${parent}`).toBeLessThan(order.indexOf(parent));
    }
    expect(order.indexOf("jobs")).toBeLessThan(order.indexOf("payouts"));
    expect(order.indexOf("jobs")).toBeLessThan(order.indexOf("deliveries"));
    expect(order).not.toContain("companies");
    expect(order).not.toContain("webhook_endpoints");
  });

  it("a reset count without its table's deletion: each counted resource's rows are counted, with foreign keys on", () => {
    const db = useDatabase(":memory:");
    const store = createStore(db);
    const { deleted } = store.transaction(() => store.sandboxReset.reset(null));
    expect(Object.keys(deleted)).toEqual(RESET_COUNTED.map(({ collection }) => collection));
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  });

  it("an event type named after no resource: each resource's events begin with its name", () => {
    for (const [name, resource] of Object.entries(RESOURCES)) for (const type of resource.events) expect(type.startsWith(`${name}.`), type).toBe(true);
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
  });

  it("a dashboard page written but not registered: every page module's routes are mounted by dashboard/index.ts", () => {
    const folder = new URL("../../src/server/dashboard/pages/", import.meta.url);
    // Its code, without comments: a mount commented out is no mount.
    const mounting = readFileSync(new URL("../../src/server/dashboard/index.ts", import.meta.url), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    const mounters = readdirSync(folder).flatMap((name) =>
      [...readFileSync(new URL(name, folder), "utf8").matchAll(/export function (\w+Pages?)\(app: DashboardApp\b/g)].map((match) => `${name}: ${match[1]}`),
    );
    expect(mounters.length).toBeGreaterThanOrEqual(readdirSync(folder).length);
    for (const mounter of mounters) expect(mounting, mounter).toMatch(new RegExp(`\\b${mounter.split(": ")[1]}\\((pages|app), kit\\b`));
  });

  it("a resource folder's page written but not in its module: each page.tsx's mounter is the page its module.ts gives", () => {
    const folders = readdirSync(RESOURCE_FOLDERS).filter((name) => existsSync(new URL(`${name}/page.tsx`, RESOURCE_FOLDERS)));
    for (const name of folders) {
      const mounter = /export function (\w+)\(app: DashboardApp\b/.exec(readFileSync(new URL(`${name}/page.tsx`, RESOURCE_FOLDERS), "utf8"))?.[1];
      const module = readFileSync(new URL(`${name}/module.ts`, RESOURCE_FOLDERS), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
      expect(module, `${name}/module.ts gives ${mounter}`).toMatch(
        new RegExp(`\\bpage: async \\(\\) => \\(await import\\("\\./page\\.js"\\)\\)\\.${mounter}\\b`),
      );
    }
  });

  it("a resource's dashboard page with no place in the navigation: each module with a page has its section, `/<collection>`", async () => {
    const withPage = (await loadResourceModules()).filter((module) => module.page !== undefined);
    expect(withPage.length).toBeGreaterThanOrEqual(2);
    for (const { definition } of withPage) {
      expect(
        NAV.map(({ id, path }) => `${id} ${path}`),
        `the section of ${definition.collection}`,
      ).toContain(`${definition.collection} /${definition.collection}`);
    }
  });

  it("a dashboard page the registry links to but no page serves: each resource with one has its `/<collection>/:id` page", () => {
    const pages = [
      ...readdirSync(new URL("../../src/server/dashboard/pages/", import.meta.url)).map(
        (name) => new URL(`../../src/server/dashboard/pages/${name}`, import.meta.url),
      ),
      ...readdirSync(RESOURCE_FOLDERS).flatMap((name) =>
        existsSync(new URL(`${name}/page.tsx`, RESOURCE_FOLDERS)) ? [new URL(`${name}/page.tsx`, RESOURCE_FOLDERS)] : [],
      ),
    ].map((url) => readFileSync(url, "utf8"));
    for (const resource of Object.values(RESOURCES).filter((one) => one.dashboardPage)) {
      expect(
        pages.some((source) => source.includes(`app.get("/${resource.collection}/:id"`)),
        `a page for ${resource.collection}`,
      ).toBe(true);
      expect(dashboardPathOf(`${resource.idPrefix}_0123456789abcdefghijklmn`)).toBe(`/${resource.collection}/${resource.idPrefix}_0123456789abcdefghijklmn`);
    }
    expect(dashboardPathOf("we_0123456789abcdefghijklmn")).toBeUndefined();
  });
});
