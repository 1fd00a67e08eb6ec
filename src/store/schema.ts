/**
 * What the store is made of: paysim's own schema steps, and the repositories every layer reads by
 * name (`store.<name>`), among them those a resource's module shares (`shared.repo`), made from
 * resources/<collection>/store.ts. A new resource's table is its module's (resources/resource-module.ts) and needs
 * no line here (docs/architecture.md, "Adding a resource"); a migration file left out of MIGRATIONS
 * fails a test named for it.
 */

import type { Migration } from "./migrations/migration.js";
import type { TableDefinition } from "./table.js";
import { rulesOf } from "./snapshot-checks.js";
import type { SnapshotRules } from "./snapshot-rows.js";
import type { SnapshotSources } from "./snapshot-sources.js";
import { migration010 } from "./migrations/010-initial.js";
import { migration020 } from "./migrations/020-payouts-and-jobs.js";
import { migration030 } from "./migrations/030-deliveries.js";
import { migration040 } from "./migrations/040-idempotency-by-arrival.js";
import { migration050 } from "./migrations/050-forward-to-endpoints.js";
import { migration060 } from "./migrations/060-webhook-chaos.js";
import { migration070 } from "./migrations/070-fault-rules.js";
import { migration090 } from "./migrations/090-deliveries-by-company.js";
import { migration100 } from "./migrations/100-sent-signature.js";
import { migration110 } from "./migrations/110-fault-retry-after.js";
import { migration120 } from "./migrations/120-resent-deliveries.js";
import { API_KEYS, createApiKeysRepo } from "./repos/api-keys.js";
import { COMPANIES, createCompaniesRepo } from "../resources/companies/store.js";
import { DELIVERIES, createDeliveriesRepo } from "../resources/deliveries/store.js";
import { DELIVERY_ATTEMPTS, createDeliveryAttemptsRepo } from "../resources/delivery-attempts/store.js";
import { EVENTS, createEventsRepo } from "../resources/events/store.js";
import { FAULT_RULES, createFaultRulesRepo } from "../resources/faults/store.js";
import { IDEMPOTENCY_KEYS, createIdempotencyKeysRepo } from "./repos/idempotency-keys.js";
import { JOBS, createJobsRepo } from "./repos/jobs.js";
import { META, createMetaRepo } from "./repos/meta.js";
import { PAYMENT_INTENTS } from "../resources/payment-intents/store.js";
import { PAYOUTS } from "../resources/payouts/store.js";
import { createSandboxResetRepo } from "./repos/sandbox-reset.js";
import { WEBHOOK_ENDPOINTS, createWebhookEndpointsRepo } from "../resources/webhook-endpoints/store.js";

export type { Migration } from "./migrations/migration.js";

/** Every schema step, in order. Append only: a released step never changes. */
export const MIGRATIONS: readonly Migration[] = [
  migration010,
  migration020,
  migration030,
  migration040,
  migration050,
  migration060,
  migration070,
  migration090,
  migration100,
  migration110,
  migration120,
];

/**
 * Each table's definition (store/table.ts), each after the tables its rows refer to: a snapshot's
 * rows are checked in this order. test/store/table-definitions.test.ts holds them to the migrated
 * schema. The payment intents' and payouts' tables are paysim's own though their folders define
 * them: their steps (010, 020) are among MIGRATIONS, and other tables' rows name theirs (an
 * event's object, a payout move's job), so they are checked before those.
 */
export const TABLES: readonly TableDefinition[] = [
  META,
  COMPANIES,
  API_KEYS,
  PAYMENT_INTENTS,
  PAYOUTS,
  EVENTS,
  WEBHOOK_ENDPOINTS,
  DELIVERIES,
  DELIVERY_ATTEMPTS,
  JOBS,
  FAULT_RULES,
  IDEMPOTENCY_KEYS,
];

const rules = new WeakMap<SnapshotSources, SnapshotRules>();

/**
 * What each column of an imported snapshot may hold, from the table definitions (paysim's, with
 * `resourceTables`, those of the resource folders' stores, before the events that name their rows)
 * and what the wiring hands in. Built on
 * the first import: a start without one builds none of their schemas.
 */
export function snapshotRules(sources: SnapshotSources, resourceTables: readonly TableDefinition[] = []): SnapshotRules {
  let built = rules.get(sources);
  if (built === undefined) rules.set(sources, (built = rulesOf(TABLES, sources)));
  if (resourceTables.length === 0) return built;
  // An event names an object of any resource (events.object_id): every resource's rows are read before the events.
  const events = built.findIndex((rule) => rule.table === EVENTS.name);
  return [...built.slice(0, events), ...rulesOf(resourceTables, sources), ...built.slice(events)];
}

/** Each table's repository maker: its statements are prepared when it is made (store/index.ts makes each on first use). */
export const REPOS = {
  meta: createMetaRepo,
  companies: createCompaniesRepo,
  apiKeys: createApiKeysRepo,
  jobs: createJobsRepo,
  events: createEventsRepo,
  idempotencyKeys: createIdempotencyKeysRepo,
  webhookEndpoints: createWebhookEndpointsRepo,
  deliveries: createDeliveriesRepo,
  deliveryAttempts: createDeliveryAttemptsRepo,
  sandboxReset: createSandboxResetRepo,
  faultRules: createFaultRulesRepo,
};
