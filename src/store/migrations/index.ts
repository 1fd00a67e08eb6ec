import type { Migration } from "./migration.js";
import { migration010 } from "./010-initial.js";
import { migration020 } from "./020-payouts-and-jobs.js";
import { migration030 } from "./030-deliveries.js";
import { migration040 } from "./040-idempotency-by-arrival.js";
import { migration050 } from "./050-forward-to-endpoints.js";
import { migration060 } from "./060-webhook-chaos.js";
import { migration070 } from "./070-fault-rules.js";
import { migration090 } from "./090-deliveries-by-company.js";
import { migration100 } from "./100-sent-signature.js";
import { migration110 } from "./110-fault-retry-after.js";
import { migration120 } from "./120-resent-deliveries.js";

export type { Migration } from "./migration.js";

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
