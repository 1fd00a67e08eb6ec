import type { ResourceDefinition } from "../define.js";

/** A company: a merchant of the sandbox, with its keys and its own data. */
export const company = {
  noun: "company",
  collection: "companies",
  idPrefix: "co",
  events: [],
  table: "companies",
  reset: "kept",
  dashboardPage: false,
} as const satisfies ResourceDefinition;
