import type { PaysimConfig } from "./config.js";

/**
 * The options of `paysim start`, in camelCase (SPEC §1): what `startPaysim()` takes, and the
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
  /** Run the clock this many times faster than real time: greater than 0, at most 1000000; default 1. */
  timeScale?: number;
  /** "auto" (default): payouts move by themselves on the clock; "manual": only when told. */
  payouts?: "auto" | "manual";
  /** How long a webhook endpoint has to answer, in milliseconds; default 20000. */
  webhookTimeout?: number;
  /**
   * A snapshot file (written by `snapshot(path)` or `--export-on-exit`) to start from: its copy
   * becomes the database (in memory, or the `db` file, which must be missing or empty). The file
   * itself is only read. One that is not a paysim snapshot, or is from a newer paysim, is refused
   * with UnusableDatabaseError naming it.
   */
  importFrom?: string;
  /** A config file path, or the config itself (companies, keys, endpoints). */
  config?: string | PaysimConfig;
  /** Called with the request id and the error when paysim hits a bug; by default nothing is printed. */
  onInternalError?: (requestId: string, error: unknown) => void;
}
