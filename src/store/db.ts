import type { SqliteDatabase } from "./sqlite-driver.js";

/** An open paysim database (store/open.ts opens one): what every repository prepares its statements on. */
export type Db = SqliteDatabase;
