import type { Database } from "better-sqlite3";

/** One schema step. Each step lives in its own file and imports only this type, so the list in store/schema.ts is the one place that knows them all. */
export interface Migration {
  /** PRAGMA user_version after this step; steps of 10 leave room for fixes in between. */
  version: number;
  up(db: Database): void;
}
