/**
 * The routes of the server's HTML pages, the hosted checkout and the dashboard, as the one module
 * app.ts loads on the first request for either (`onDemand`). One module rather than one each: the
 * CLI bundle (scripts/bundle-cli.mjs) puts the code the pages share with the rest of paysim in one
 * chunk per set of importers, so every lazily loaded module multiplied the files a start loads
 * (ten, where four do), and each file costs its own load.
 */
export { checkoutRoutes } from "./checkout/routes.js";
export { dashboardRoutes } from "./dashboard/index.js";
