import type { ApiCall, ApiResponse } from "./paysim.js";

/**
 * A seeded pseudo-random sequence (mulberry32): the same seed gives the same
 * numbers on every run, so a load test's choices are reproducible.
 *
 * @example
 * const random = seededRandom(42);
 * random();        // a number in [0, 1)
 * random.int(3);   // 0, 1 or 2
 */
export function seededRandom(seed: number): (() => number) & { int(below: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return Object.assign(next, {
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  });
}

/**
 * A number in [0, 1) that depends only on `seed` and `parts`: the choice for
 * "request n of event i" is the same whatever order requests arrive in.
 */
export function hashedUnit(seed: number, ...parts: number[]): number {
  let h = seed >>> 0;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x9e3779b1);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
  }
  return seededRandom(h)();
}

/** Runs `work` on every item with at most `concurrency` at once; resolves with the results in item order. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

type Api = <T = any>(method: string, path: string, call?: ApiCall) => Promise<ApiResponse<T>>;

/** Every object of a list endpoint (`/v1/payment_intents`, …), newest first, page by page. */
export async function listAll(api: Api, path: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const separator = path.includes("?") ? "&" : "?";
    const response = await api("GET", `${path}${separator}limit=100${cursor ? `&starting_after=${cursor}` : ""}`);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
    all.push(...response.body.data);
    if (!response.body.has_more) return all;
    cursor = response.body.data.at(-1).id;
  }
}
