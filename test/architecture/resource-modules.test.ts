// What the wiring refuses of a resource's module (resources/load.ts), said at start with the
// resource named, before any file is made: each row is one way to write a module wrong.
import { describe, expect, it } from "vitest";
import { checkedModule, loadResourceModules, ResourceModuleError } from "../../src/resources/load.js";
import { payout } from "../../src/resources/payouts/resource.js";
import { event } from "../../src/resources/events/resource.js";
import type { ResourceModule } from "../../src/resources/resource-module.js";
import type { Operation } from "../../src/server/operations/define.js";
import { REPOS } from "../../src/store/schema.js";

const store = { migrations: [], repo: () => ({}), tables: [] };
const operation = {} as Operation;
const page = () => Promise.resolve(() => {});

const REFUSED: [string, unknown, RegExp][] = [
  ["nothing exported", undefined, /^The module of payouts is not its own: .*export default defineResourceModule/],
  ["another resource's module", { definition: event, operations: [] }, /^The module of payouts is not its own/],
  [
    "a service without a store",
    { definition: payout, service: () => ({}), operations: [operation], page },
    /^The module of payouts has a service but no store/,
  ],
  [
    "a shared repository without a store",
    { definition: payout, shared: { repo: "events" }, operations: [], page },
    /shares a repository \(shared\.repo\) but has no store/,
  ],
  [
    "a service made and one shared",
    { definition: payout, store, service: () => ({}), shared: { service: "events" }, operations: [operation], page },
    /makes a service and shares one \(shared\.service\)/,
  ],
  ["operations with no service", { definition: payout, store, operations: [operation], page }, /serves operations but makes no service .* shares none/],
  [
    "a promised dashboard page not given",
    { definition: payout, store, service: () => ({}), operations: [operation] },
    /^payouts promises a dashboard page \(dashboardPage: true\)/,
  ],
];

describe("a resource's module", () => {
  it.each(REFUSED)("is refused for %s, naming the resource", (_, exported, message) => {
    expect(() => checkedModule(payout, exported)).toThrow(ResourceModuleError);
    expect(() => checkedModule(payout, exported)).toThrow(message);
  });

  it("is taken as it is when whole: a service of its own, or one it shares", () => {
    const own = { definition: payout, store, service: () => ({}), operations: [operation], page } as ResourceModule;
    const shared = { definition: payout, store, shared: { repo: "events", service: "events" }, operations: [operation], page } as ResourceModule;
    expect(checkedModule(payout, own)).toBe(own);
    expect(checkedModule(payout, shared)).toBe(shared);
  });

  it("a shared repository the store makes otherwise: each module's `shared.repo` is the store's, made from the module's own store", async () => {
    const sharing = (await loadResourceModules()).filter((module) => module.shared?.repo !== undefined);
    expect(sharing.map((module) => module.definition.collection)).toEqual(expect.arrayContaining(["events", "webhook_endpoints", "faults", "companies"]));
    for (const module of sharing) expect(REPOS[module.shared!.repo!], `store.${module.shared!.repo!}`).toBe(module.store!.repo);
  });
});
