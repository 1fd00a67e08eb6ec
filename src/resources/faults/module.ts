import { defineResourceModule } from "../resource-module.js";
import { FAULT_OPERATIONS } from "./operations.js";
import { fault } from "./resource.js";
import { createFaultRulesRepo } from "./store.js";

/**
 * Fault rules (docs/faults.md): their table's statements (`store.faultRules`), the service that
 * keeps them and that the request pipeline asks of every request (`deps.faults`), /v1/sandbox/faults,
 * and the dashboard's page.
 */
export default defineResourceModule(fault, {
  store: { migrations: [], repo: createFaultRulesRepo, tables: [] },
  shared: { repo: "faultRules", service: "faults" },
  operations: FAULT_OPERATIONS,
  page: async () => (await import("./page.js")).faultsPage,
});
