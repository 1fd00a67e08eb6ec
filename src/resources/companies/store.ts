import * as z from "zod";
import { idOf } from "../../domain/answer-schemas.js";
import { companyFieldSchemas } from "../../domain/start-inputs.js";
import type { Db } from "../../store/db.js";
import { by, flag, timestamp } from "../../store/snapshot-checks.js";
import { col, defineTable, type RowOf } from "../../store/table.js";

export const COMPANIES = defineTable(
  "companies",
  {
    id: col.textKey({ check: by(() => idOf("co")) }),
    name: col.text({ check: by(() => companyFieldSchemas(true).name.pipe(z.string())) }, "UNIQUE"),
    currency: col.text({ check: by(() => companyFieldSchemas(true).currency) }),
    is_default: col.integer({ check: flag([0, 1]) }, "DEFAULT 0"),
    created_at: col.text({ check: timestamp }),
  },
  { key: "id" },
);

export type Company = RowOf<typeof COMPANIES.columns>;

export function createCompaniesRepo(db: Db) {
  const insert = db.prepare("INSERT INTO companies (id, name, currency, is_default, created_at) VALUES (@id, @name, @currency, @is_default, @created_at)");
  const byId = db.prepare("SELECT * FROM companies WHERE id = ?");
  const byName = db.prepare("SELECT * FROM companies WHERE name = ?");
  const defaultCompany = db.prepare("SELECT * FROM companies WHERE is_default = 1");
  const clearDefault = db.prepare("UPDATE companies SET is_default = 0 WHERE is_default = 1");
  const setDefault = db.prepare("UPDATE companies SET is_default = 1 WHERE id = ?");
  const setCurrency = db.prepare("UPDATE companies SET currency = ? WHERE id = ?");
  return {
    insert: (company: Company) => void insert.run(company),
    byId: (id: string) => byId.get(id) as Company | undefined,
    byName: (name: string) => byName.get(name) as Company | undefined,
    defaultCompany: () => defaultCompany.get() as Company | undefined,
    makeDefault(id: string) {
      clearDefault.run();
      setDefault.run(id);
    },
    setCurrency: (id: string, currency: string) => void setCurrency.run(currency, id),
  };
}
