import { defineResourceModule } from "../resource-module.js";
import { INSTANCE_OPERATIONS } from "./operations.js";
import { instance } from "./resource.js";

/**
 * Instances (docs/testing.md, "Instances"): held in memory, by the registry the wiring makes with
 * the way to start a whole paysim (`deps.instances`, which a stopping parent closes);
 * /v1/sandbox/instances and the dashboard's page.
 */
export default defineResourceModule(instance, {
  shared: { service: "instances" },
  operations: INSTANCE_OPERATIONS,
  page: async () => (await import("./page.js")).instancesPage,
});
