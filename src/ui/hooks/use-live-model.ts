import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { LiveFeed } from "../live-feed.js";
import type { LiveModel, Printed } from "../model.js";
import { realTimers, type TimerHandle, type Timers } from "../../runtime/timers.js";

export interface LiveSnapshot {
  model: LiveModel;
  /** Finished lines taken with this snapshot; `batch` changes when there are new ones. */
  lines: readonly Printed[];
  batch: number;
  /** Clock time when the snapshot was taken. */
  now: number;
}

/**
 * Hands React a snapshot of what `feed` heard, at most every `throttleMs`, and
 * the finished lines to `print` once the frame without them is drawn (so that a
 * finished event never shows both printed and still in flight). A batch's lines
 * are printed once, then let go. The feed listens from before the view mounts:
 * what it heard since its last take and the mount is drawn in the first throttled frame.
 * The throttle's timer is set on `options.timers` (Node's by default).
 */
export function useLiveModel(
  feed: LiveFeed,
  options: { throttleMs: number; timers?: Timers | undefined; print: (lines: readonly Printed[], now: number) => void },
): LiveSnapshot {
  const [snapshot, setSnapshot] = useState<LiveSnapshot>(() => ({ model: feed.current(), lines: [], batch: 0, now: feed.clock.now() }));
  const print = useRef(options.print);
  useLayoutEffect(() => {
    print.current = options.print;
  });
  // The batch printed last: lines of a batch not drawn yet are carried into the next one, never lost.
  const printed = useRef(0);
  useLayoutEffect(() => {
    if (printed.current === snapshot.batch) return;
    printed.current = snapshot.batch;
    print.current(snapshot.lines, snapshot.now);
  }, [snapshot]);

  const { throttleMs, timers = realTimers } = options;
  useEffect(() => {
    let timer: TimerHandle | undefined;
    const flush = () => {
      timer = undefined;
      const taken = feed.take();
      const now = feed.clock.now();
      setSnapshot((previous) => {
        const carried = printed.current === previous.batch ? [] : previous.lines;
        if (taken.printed.length === 0 && carried.length === 0) return { ...previous, model: taken.model, now };
        return { model: taken.model, lines: [...carried, ...taken.printed], batch: previous.batch + 1, now };
      });
    };
    const schedule = () => {
      timer ??= timers.setTimeout(flush, throttleMs);
    };
    const stopListening = feed.onNews(schedule);
    // What the feed heard before the view mounted.
    if (feed.hasNews()) schedule();
    return () => {
      stopListening();
      if (timer) timers.clearTimeout(timer);
    };
  }, [feed, throttleMs, timers]);

  return snapshot;
}
