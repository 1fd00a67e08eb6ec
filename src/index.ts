/**
 * The public API of the `paysim` package.
 *
 * @example
 * import { startPaysim } from "paysim";
 * const paysim = await startPaysim();
 * // … call paysim.url with paysim.secretKey …
 * await paysim.close();
 */
export { createPaysim, type PaysimInstance, type PaysimOptions } from "./paysim.js";
export { ConfigError, type PaysimConfig } from "./config.js";
