import { describe, expect, it, vi } from "vitest";
import { createHeldRequests } from "../../src/server/held-requests.js";
import { manualTimers } from "../helpers/manual-timers.js";

describe("held requests (the waits of timeout and latency faults)", () => {
  it("resolves true once the wait is over, not a millisecond before", async () => {
    const timers = manualTimers();
    const held = createHeldRequests(timers);
    let served: boolean | undefined;
    const hold = held.hold(60_000).then((outcome) => (served = outcome));
    timers.advance(59_999);
    await timers.settled();
    expect(served).toBeUndefined();
    timers.advance(1);
    expect(await hold).toBe(true);
  });

  it("resolves false at once when released by a stop, and for a hold asked for afterwards", async () => {
    const timers = manualTimers();
    const held = createHeldRequests(timers);
    const first = held.hold(60_000);
    const second = held.hold(30_000);
    held.releaseAll();
    expect(await Promise.all([first, second])).toEqual([false, false]);
    expect(await held.hold(60_000)).toBe(false);
    expect(timers.pending()).toBe(0);
  });

  it("resolves false when its caller cuts it short, and stops listening then", async () => {
    const timers = manualTimers();
    const held = createHeldRequests(timers);
    let cut: (() => void) | undefined;
    const stopped = vi.fn();
    const hold = held.hold(60_000, (release) => {
      cut = release;
      return stopped;
    });
    cut!();
    expect(await hold).toBe(false);
    expect(stopped).toHaveBeenCalledOnce();
    expect(timers.pending()).toBe(0);
  });

  it("is cut short at once by a caller whose connection is already gone", async () => {
    const held = createHeldRequests();
    expect(await held.hold(60_000, (release) => (release(), () => {}))).toBe(false);
  });

  it("stops the requests held until the stop, and resolves releaseAll once their answers have left", async () => {
    const held = createHeldRequests();
    const stopped = vi.fn();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    held.untilStop(stopped, answered);
    const forgotten = vi.fn();
    const forget = held.untilStop(forgotten, new Promise<void>(() => {}));
    forget();
    expect(held.heldUntilStop()).toBe(1);

    let released = false;
    const releasing = held.releaseAll().then(() => (released = true));
    expect(stopped).toHaveBeenCalledOnce();
    expect(forgotten).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(released).toBe(false);
    answer();
    await releasing;
    expect(held.heldUntilStop()).toBe(0);

    // One held after the stop is stopped at once.
    const late = vi.fn();
    held.untilStop(late, Promise.resolve());
    expect(late).toHaveBeenCalledOnce();
  });
});
