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
} as const satisfies ResourceDefinition;
