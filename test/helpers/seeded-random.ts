import type { RandomSource } from "../../src/domain/ids.js";

/**
 * A replayable source of "random" bytes for `createIds`: the same seed gives
 * the same bytes (mulberry32), so a test can make the same ids twice.
 */
export function seededSource(seed: number): RandomSource {
  let state = seed >>> 0;
  return (size) => {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      bytes[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
    }
    return bytes;
  };
}
