/**
 * The layering of paysim, checked by `npm test` (docs/architecture.md draws it):
 *
 *   cli, ui  →  paysim.ts (wiring)  →  server, webhooks, sim  →  services  →  contracts  →  runtime, store  →  domain
 *
 * shared/ holds small technical helpers with no rule of the product in them (hashing, canonical
 * JSON, a JSON answer's text): any layer may use them, and they import nothing of ours.
 *
 * Nothing lower imports anything higher; where a lower layer needs something from above, it declares
 * a port (an interface) and the wiring fills it. The bus (src/bus.ts) is the contract the UI, the CLI
 * reporters and the test helpers read: it owns its payloads and imports only the domain.
 */
/**
 * A resource in a folder of its own (src/resources/<collection>/) keeps each layer's part in a file
 * named for its layer, and each file follows that layer's rules: `resource.ts` and `machine.ts` (with
 * the registry, resources/index.ts, and resources/define.ts) are domain, `store.ts` store, `contract.ts` contracts, `service.ts` a
 * service, `operations.ts` and `page.tsx` server, `module.ts` (with resources/load.ts and
 * resources/resource-module.ts) the wiring.
 */
const RESOURCE_FACTS = "resources/(index|define)\\.ts$|resources/[^/]+/(resource|machine)\\.ts$";
const RESOURCE_CONTRACT = "resources/[^/]+/contract\\.ts$";
const RESOURCE_STORE = "resources/[^/]+/store\\.ts$";
const RESOURCE_OPERATIONS = "resources/[^/]+/operations\\.ts$";
const RESOURCE_SERVICE = "resources/[^/]+/service\\.ts$";
const RESOURCE_SERVED = "resources/[^/]+/(operations\\.ts|page\\.tsx)$";
const RESOURCE_WIRING = "resources/(load|resource-module)\\.ts$|resources/[^/]+/module\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "A cycle makes two modules one: neither can be read, tested or changed alone.",
      severity: "error",
      from: {},
      // A definition's link to its module (resources/<x>/resource.ts) is a dynamic import the wiring
      // follows after every module has loaded: a cycle through it is not one at load time.
      to: { circular: true, viaOnly: { dependencyTypesNot: ["dynamic-import"] } },
    },
    {
      name: "domain-is-pure",
      comment: "domain/ is pure logic: it imports nothing of ours outside it but the shared helpers.",
      severity: "error",
      from: { path: `^src/(domain/|${RESOURCE_FACTS})` },
      to: { path: "^src/", pathNot: `^src/((domain|shared)/|${RESOURCE_FACTS})`, dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "only-a-definition-loads-lazily",
      comment: "The one lazy import below the wiring is a resource definition's link to its module: no other pure module loads code.",
      severity: "error",
      from: { path: `^src/(domain/|${RESOURCE_FACTS})`, pathNot: "^src/resources/[^/]+/resource\\.ts$" },
      to: { dependencyTypes: ["dynamic-import"] },
    },
    {
      name: "a-definition-loads-its-own-module",
      comment: "A resource's definition links the module of its own folder, nothing else: what it loads is the rest of itself.",
      severity: "error",
      from: { path: "^src/resources/([^/]+)/resource\\.ts$" },
      to: { dependencyTypes: ["dynamic-import"], pathNot: "^src/resources/$1/module\\.ts$" },
    },
    {
      name: "shared-imports-nothing",
      comment: "shared/ helpers stand alone: they import nothing of ours outside shared/.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { path: "^src/", pathNot: "^src/shared/" },
    },
    {
      name: "store-only-domain",
      comment: "store/ (SQL) depends on the domain (and the shared helpers) only.",
      severity: "error",
      from: { path: `^src/(store/|${RESOURCE_STORE})` },
      to: { path: "^src/", pathNot: `^src/((store|domain|shared)/|${RESOURCE_FACTS}|${RESOURCE_STORE})` },
    },
    {
      name: "contracts-are-schemas",
      comment:
        "contracts/ holds each operation's input and answer schemas: below services, it imports the domain, the shared helpers, the store's resource shapes and the shipped test data (the cards and tokens it lists) only.",
      severity: "error",
      from: { path: `^src/(contracts/|${RESOURCE_CONTRACT})` },
      to: { path: "^src/", pathNot: `^src/((contracts|domain|shared|store)/|fixture-data[.]ts$|${RESOURCE_FACTS}|${RESOURCE_STORE}|${RESOURCE_CONTRACT})` },
    },
    {
      name: "runtime-is-low",
      comment: "runtime/ (clock, scheduler) knows no services, webhooks, server, ui or cli: it gets a port instead.",
      severity: "error",
      from: { path: "^src/runtime/" },
      to: { path: "^src/(services|webhooks|sim|server|ui|cli|fixtures|testing)/|^src/(paysim|index|config)\\.ts$" },
    },
    {
      name: "bus-owns-its-payloads",
      comment: "The bus carries plain data it defines: it imports the domain only, never store rows or senders.",
      severity: "error",
      from: { path: "^src/bus\\.ts$" },
      to: { path: "^src/", pathNot: "^src/(domain/|shared/|bus\\.ts$)" },
    },
    {
      name: "services-below-adapters",
      comment: "services/ are used by the server, webhooks and sim, never the other way round.",
      severity: "error",
      from: { path: `^src/(services/|${RESOURCE_SERVICE})` },
      to: { path: `^src/(server|webhooks|sim|ui|cli|fixtures|testing)/|^src/(paysim|index)\\.ts$|^src/(${RESOURCE_SERVED}|${RESOURCE_WIRING})` },
    },
    {
      name: "adapters-below-wiring",
      comment: "server/, webhooks/ and sim/ are wired by paysim.ts; they know no ui or cli.",
      severity: "error",
      from: { path: `^src/((server|webhooks|sim)/|${RESOURCE_SERVED})` },
      to: { path: `^src/(ui|cli|testing)/|^src/(paysim|index)\\.ts$|^src/(${RESOURCE_WIRING})` },
    },
    {
      name: "adapters-meet-in-services",
      comment:
        "server/, webhooks/ and sim/ are siblings: what one needs of another (a read model, the outbox) is a service, or a port services/ declare that the wiring fills.",
      severity: "error",
      from: { path: "^src/(server|webhooks|sim)/" },
      to: { path: "^src/(server|webhooks|sim)/", pathNot: "^src/$1/" },
    },
    {
      name: "cli-through-its-client",
      comment:
        "The CLI (and the fixture runner it drives) reaches a paysim only over HTTP (cli/client.ts) or through the wiring (paysim.ts); besides, it reads plain rules and data (domain/, shared/, the bus's messages, config.ts, options.ts, the data files, the version), draws with ui/, and takes the types of the answers it reads from the operation definitions (server/operations/, a resource folder's operations.ts, and the contracts they are made of: types only, the next rule). So the app's insides change without a command noticing.",
      severity: "error",
      from: { path: "^src/(cli|fixtures)/" },
      to: {
        path: "^src/",
        pathNot: `^src/(cli|fixtures|domain|shared|ui|contracts|server/operations)/|^src/(paysim|bus|config|options|version|fixture-data)\\.ts$|^src/(${RESOURCE_FACTS}|${RESOURCE_CONTRACT}|${RESOURCE_OPERATIONS})`,
      },
    },
    {
      name: "cli-types-from-definitions",
      comment:
        "The CLI's types of the answers it reads come from the API's operation definitions (cli/api-types.ts, AnswerOf): as types only, so no definition, schema or service behind them runs in the CLI.",
      severity: "error",
      from: { path: "^src/(cli|fixtures)/" },
      to: { path: `^src/(contracts/|server/operations/|${RESOURCE_CONTRACT}|${RESOURCE_OPERATIONS})`, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "services-take-their-config",
      comment:
        "services/ read no config file, start option or fixture data: the wiring passes in what they need, so a test builds a service from plain values.",
      severity: "error",
      from: { path: `^src/(services/|${RESOURCE_SERVICE})` },
      to: { path: "^src/(config|options|fixture-data)\\.ts$" },
    },
    {
      name: "checkout-apart-from-dashboard",
      comment:
        "The checkout (server/checkout/) and the dashboard (server/dashboard/) are two sites of their own: neither imports the other; what both use (the page head, the pages' headers and form tokens) lives beside them in server/, or below.",
      severity: "error",
      from: { path: "^src/server/(checkout|dashboard)/" },
      to: { path: "^src/server/(checkout|dashboard)/", pathNot: "^src/server/$1/" },
    },
    {
      name: "test-helpers-read-below",
      comment: "testing/ (the waits of startPaysim) reads the bus, the store and the views below it; the package wires it, never the other way round.",
      severity: "error",
      from: { path: "^src/testing/" },
      to: { path: "^src/(server|sim|ui|cli|fixtures)/|^src/(paysim|index)\\.ts$" },
    },
    {
      name: "ui-reads-the-bus",
      comment: "ui/ depends on the bus contract and the domain, never on the store, the server, the CLI or the wiring.",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/(store|server|cli|services|webhooks|sim)/|^src/(paysim|index)\\.ts$" },
    },
    {
      name: "dashboard-pages-stand-alone",
      comment:
        "A dashboard page calls services, like an operation: it imports no other page (what two pages share lives in the dashboard's kit, views or below).",
      severity: "error",
      from: { path: "^src/server/dashboard/pages/([^/.]+)" },
      to: { path: "^src/(server/dashboard/pages/|resources/[^/]+/page\\.tsx$)", pathNot: "^src/server/dashboard/pages/$1[.]" },
    },
    {
      name: "resource-pages-stand-alone",
      comment: "A resource's dashboard pages (resources/<collection>/page.tsx) import no other page either: another resource's or the dashboard's own.",
      severity: "error",
      from: { path: "^src/resources/([^/]+)/page\\.tsx$" },
      to: { path: "^src/(server/dashboard/pages/|resources/[^/]+/page\\.tsx$)", pathNot: "^src/resources/$1/page\\.tsx$" },
    },
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
