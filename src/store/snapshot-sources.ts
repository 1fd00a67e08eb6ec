/**
 * What the store's snapshot checks need from the layers above it, handed in by the wiring
 * (src/paysim.ts): the store may import only the domain, but some columns hold what a contract's
 * schema, the clock's range, a job's owner or the shipped test data decide. A table definition
 * asks for them with `handedIn` (store/table.ts).
 */
import type * as z from "zod";
import type { TestDestination } from "../resources/payouts/machine.js";
import type { TestCard } from "../domain/test-cards.js";
import type { ColumnCheck } from "./snapshot-rows.js";

/** An answer schema as the contracts make one: lazy, built on first use. */
export type LazyObjectSchema = z.ZodType & { unwrap(): z.ZodObject };

/** A kind of job the scheduler runs, as its owner checks it: what its subject names and what its payload holds. */
export interface JobSnapshotRule {
  readonly subject: ColumnCheck;
  readonly payload: ColumnCheck;
}

export interface SnapshotSources {
  readonly clock: {
    /** The keys the clock is stored under in `meta`. */
    readonly keys: readonly [string, ...string[]];
    /** Why a stored clock reading (milliseconds as text) is out of the clock's range, or undefined when it is in it. */
    readonly problemWith: (text: string) => string | undefined;
  };
  /** The test cards and payout destinations paysim ships: what an authorization or a payout could have stored. */
  readonly testCards: readonly TestCard[];
  readonly testDestinations: readonly TestDestination[];
  /** The API's schemas of the resources whose contracts live above the store. */
  readonly schemas: {
    readonly event: LazyObjectSchema;
    readonly delivery: LazyObjectSchema;
    readonly deliveryAttempt: LazyObjectSchema;
    readonly webhookEndpoint: LazyObjectSchema;
    /** What the API takes to create an endpoint: a live endpoint's URL is one it would take. */
    readonly newWebhookEndpoint: LazyObjectSchema;
    readonly fault: LazyObjectSchema;
  };
  /** Each kind of job, by its `kind` column's value, checked where its payload is defined. */
  readonly jobs: Readonly<Record<string, JobSnapshotRule>>;
}
