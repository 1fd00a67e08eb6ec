/**
 * What a test expects of the answers paysim derives from its resource registry (domain/resources.ts),
 * computed from the registry rather than written out: a reset's counts and how the CLI and the log
 * print them, the trigger fixture of each event type. A resource added as docs/architecture.md
 * ("Adding a resource") says changes these, and no test that uses them (coverage-totals.ts does
 * the same for the coverage report).
 */
import { readFileSync } from "node:fs";
import { byResetCount, EVENT_TYPES, RESET_COUNTED, type EventType, type ResetCounts } from "../../src/domain/resources.js";
import { runFixture, type FixtureClient } from "../../src/fixtures/runner.js";
import { parseFixture } from "../../src/fixtures/validate.js";

/** A reset's `deleted`: `counts` for the kinds given, 0 for every other kind the reset counts. */
export function resetCounts(counts: Partial<ResetCounts> = {}): ResetCounts {
  return byResetCount((collection) => counts[collection] ?? 0);
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** "1 payment intent, 0 payouts, 1 event": a reset's counts in words, as the log line and the live view say them. */
export function resetCountsInWords(counts: Partial<ResetCounts> = {}): string {
  const deleted = resetCounts(counts);
  return RESET_COUNTED.map(({ collection, noun }) => plural(deleted[collection], noun)).join(", ");
}

/** The kinds a reset counts, in plural and in the registry's order: "payment intents, payouts and events". */
export function resetKindsInWords(): string {
  const kinds = RESET_COUNTED.map(({ noun }) => `${noun}s`);
  return kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(", ")} and ${kinds.at(-1)}`;
}

/** What `paysim reset` prints: "Deleted:", then one row per counted kind, its count in one column. */
export function resetCountsTable(counts: Partial<ResetCounts> = {}): string {
  const deleted = resetCounts(counts);
  const width = Math.max(...RESET_COUNTED.map(({ noun }) => noun.length + 1));
  return ["Deleted:", ...RESET_COUNTED.map(({ collection, noun }) => `  ${`${noun}s`.padEnd(width)}  ${deleted[collection]}`)].join("\n") + "\n";
}

const TRIGGERS = new URL("../../fixtures/triggers/", import.meta.url);

/**
 * Runs the built-in fixture of each event type (fixtures/triggers/<type>.json, what `paysim
 * trigger` runs) through `client`, in the registry's order: every resource that emits an event
 * gets objects, made by its own operations. Throws at the first step refused.
 */
export async function triggerEveryEventType(client: FixtureClient, types: readonly EventType[] = EVENT_TYPES): Promise<void> {
  for (const type of types) {
    const path = new URL(`${type}.json`, TRIGGERS);
    await runFixture(parseFixture(readFileSync(path, "utf8"), `fixtures/triggers/${type}.json`), client);
  }
}
