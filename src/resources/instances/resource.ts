import type { ResourceDefinition } from "../define.js";

/** An instance: a whole paysim another one started, held in memory (docs/testing.md, "Instances"). */
export const instance = {
  noun: "instance",
  collection: "instances",
  idPrefix: "ins",
  events: [],
  table: null,
  reset: "kept",
  dashboardPage: false,
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;
