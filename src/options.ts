import type { PaysimConfig } from "./config.js";

/** Webhook chaos settings (docs/webhooks.md); each left out is 0 (`delay_ms`: [0, 0]). */
export interface WebhookChaos {
  /** Probability (0–1) that a succeeded delivery is sent once more, 1–10 s of clock time later. */
  duplicate?: number;
  /** Probability (0–1) that a first attempt is held until the next delivery to the endpoint is sent (at most 10 s). */
  reorder?: number;
  /** [min, max] ms (0–60000) of extra wait before each first attempt. */
  delay_ms?: [number, number];
  /** The decisions' seed (an integer): the same seed and events give the same chaos. */
  seed?: number;
}

/**
 * The options of `paysim start`, in camelCase (docs/cli.md): what `startPaysim()` takes, and the
 * public part of what every paysim instance is made from. Public API: its types stay free of
 * anything that needs a devDependency.
 */
export interface StartPaysimOptions {
  /** TCP port; default 0 (a free one). */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /**
   * SQLite file; default ":memory:", so nothing is written. A missing file is created (mode 0600);
   * anything but a paysim database there is refused with UnusableDatabaseError, unchanged.
   */
  db?: string;
  /** The default company's key (sk_test_…); generated when absent. */
  secretKey?: string;
  /** Webhook endpoint URL(s) registered for the default company. */
  forwardTo?: string | readonly string[];
  /** Signing secret (whsec_…) of the forwardTo endpoints; generated when absent. */
  webhookSecret?: string;
  /**
   * Webhook chaos on the forwardTo endpoints (docs/webhooks.md): `{ duplicate, reorder, delay_ms, seed }`
   * (each optional), or the `--chaos` form "duplicate=0.2,reorder=0.2,delay=0-3000,seed=42".
   */
  chaos?: string | WebhookChaos;
  /** Run the clock this many times faster than real time: greater than 0, at most 1000000; default 1. */
  timeScale?: number;
  /** "auto" (default): payouts move by themselves on the clock; "manual": only when told. */
  payouts?: "auto" | "manual";
  /** How long a webhook endpoint has to answer, in milliseconds; default 20000. */
  webhookTimeout?: number;
  /**
   * A snapshot file (written by `snapshot(path)` or `--export-on-exit`) to start from: its copy
   * becomes the database (in memory, or the `db` file, which must be missing or empty). The file
   * itself is only read. One that is not a paysim snapshot (its schema not exactly paysim's: no
   * trigger, view, index or table of its own), or is from a newer paysim, is refused with
   * UnusableDatabaseError naming it and why, leaving no `db` file behind. Card numbers in it are
   * masked in the copy. Its events are listed by `events.list()` and found by the waits.
   */
  importFrom?: string;
  /** A config file path, or the config itself (companies, keys, endpoints). */
  config?: string | PaysimConfig;
  /** Called with the request id and the error when paysim hits a bug; by default nothing is printed. */
  onInternalError?: (requestId: string, error: unknown) => void;
}
