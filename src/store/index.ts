import { createGroupCommit } from "./group-commit.js";
import type { Db } from "./open.js";
import { createApiKeysRepo } from "./repos/api-keys.js";
import { createCompaniesRepo } from "./repos/companies.js";
import { createDeliveriesRepo } from "./repos/deliveries.js";
import { createDeliveryAttemptsRepo } from "./repos/delivery-attempts.js";
import { createEventsRepo } from "./repos/events.js";
import { createFaultRulesRepo } from "./repos/fault-rules.js";
import { createIdempotencyKeysRepo } from "./repos/idempotency-keys.js";
import { createJobsRepo } from "./repos/jobs.js";
import { createMetaRepo } from "./repos/meta.js";
import { createPaymentIntentsRepo } from "./repos/payment-intents.js";
import { createPayoutsRepo } from "./repos/payouts.js";
import { createSandboxResetRepo } from "./repos/sandbox-reset.js";
import { createWebhookEndpointsRepo } from "./repos/webhook-endpoints.js";
import { exportSnapshot, serializeCommitted } from "./snapshot.js";

/** Every table's statements, prepared once for this database. SQL lives only below here. */
export function createStore(db: Db): StoreShape {
  const group = createGroupCommit(db);
  return {
    db,
    meta: createMetaRepo(db),
    companies: createCompaniesRepo(db),
    apiKeys: createApiKeysRepo(db),
    paymentIntents: createPaymentIntentsRepo(db),
    payouts: createPayoutsRepo(db),
    jobs: createJobsRepo(db),
    events: createEventsRepo(db),
    idempotencyKeys: createIdempotencyKeysRepo(db),
    webhookEndpoints: createWebhookEndpointsRepo(db),
    deliveries: createDeliveriesRepo(db),
    deliveryAttempts: createDeliveryAttemptsRepo(db),
    sandboxReset: createSandboxResetRepo(db),
    faultRules: createFaultRulesRepo(db),
    /** Runs `fn` in one IMMEDIATE transaction, durable when it returns (nested calls become savepoints). */
    transaction: group.transaction,
    /** Runs `fn` as one unit of a group commit: `committed` settles once it is durable. */
    unit: group.unit,
    /** Commits the open group now (before closing the database). */
    flush: group.flush,
    /** Resolves once the open group commit is durable; undefined when no group is open. */
    whenOpenGroupDurable: group.whenOpenGroupDurable,
    /** Writes the committed state to `path` atomically (mode 0600), never over a live database or a file that is not a snapshot; see snapshot.ts. */
    snapshot: async (path: string, signal?: AbortSignal) => exportSnapshot(path, () => serializeCommitted(db, group.flush), signal),
  };
}

interface StoreShape {
  db: Db;
  meta: ReturnType<typeof createMetaRepo>;
  companies: ReturnType<typeof createCompaniesRepo>;
  apiKeys: ReturnType<typeof createApiKeysRepo>;
  paymentIntents: ReturnType<typeof createPaymentIntentsRepo>;
  payouts: ReturnType<typeof createPayoutsRepo>;
  jobs: ReturnType<typeof createJobsRepo>;
  events: ReturnType<typeof createEventsRepo>;
  idempotencyKeys: ReturnType<typeof createIdempotencyKeysRepo>;
  webhookEndpoints: ReturnType<typeof createWebhookEndpointsRepo>;
  deliveries: ReturnType<typeof createDeliveriesRepo>;
  deliveryAttempts: ReturnType<typeof createDeliveryAttemptsRepo>;
  sandboxReset: ReturnType<typeof createSandboxResetRepo>;
  faultRules: ReturnType<typeof createFaultRulesRepo>;
  transaction<T>(fn: () => T): T;
  unit<T>(fn: () => T): { result: T; committed: Promise<void> };
  flush(): void;
  /** Resolves once the open group commit is durable; undefined when no group is open. */
  whenOpenGroupDurable(): Promise<void> | undefined;
  /**
   * Writes the committed state to `path` atomically (mode 0600), never over a live database or a
   * file that is not a snapshot; `signal` aborts the write, leaving nothing behind. See snapshot.ts.
   */
  snapshot(path: string, signal?: AbortSignal): Promise<void>;
}

export type Store = StoreShape;
