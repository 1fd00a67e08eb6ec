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
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;
