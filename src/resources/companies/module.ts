import { defineResourceModule } from "../resource-module.js";
import { company } from "./resource.js";
import { createCompaniesRepo } from "./store.js";

/**
 * Companies: their table's statements (`store.companies`), which the start fills from the config
 * and every request's key is checked against. They have no operations: a company is made by its
 * config, or by starting an instance.
 */
export default defineResourceModule(company, {
  store: { migrations: [], repo: createCompaniesRepo, tables: [] },
  shared: { repo: "companies" },
  operations: [],
});
