import type { ResourceDefinition } from "../define.js";

/** A fault rule: a failure the sandbox injects into matching requests (docs/faults.md). */
export const fault = {
  noun: "fault rule",
  collection: "faults",
  idPrefix: "flt",
  events: [],
  table: "fault_rules",
  reset: "deleted",
  dashboardPage: false,
} as const satisfies ResourceDefinition;
