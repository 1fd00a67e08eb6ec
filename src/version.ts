import { readFileSync } from "node:fs";

/** The package version, read once from package.json (src/ and dist/ sit at the same depth). */
export const VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
