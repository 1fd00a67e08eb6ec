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
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;
