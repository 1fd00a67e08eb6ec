import { readFileSync } from "node:fs";
import type { TestDestination } from "./resources/payouts/machine.js";
import type { TestCard } from "./domain/test-cards.js";

/** Where the data files (test cards, destinations, trigger fixtures) live (src/ and dist/ sit at the same depth). */
export const FIXTURES_DIR = new URL("../fixtures/", import.meta.url);

/** Reads one JSON data file of fixtures/: test data lives there, not in code. */
function readJsonFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, FIXTURES_DIR), "utf8")) as T;
}

export const loadTestCards = () => readJsonFixture<TestCard[]>("test-cards.json");
export const loadTestDestinations = () => readJsonFixture<TestDestination[]>("test-destinations.json");

/** The test cards and destinations as shipped: the API's request schemas list their names. */
export const TEST_CARDS: readonly TestCard[] = loadTestCards();
export const TEST_DESTINATIONS: readonly TestDestination[] = loadTestDestinations();
