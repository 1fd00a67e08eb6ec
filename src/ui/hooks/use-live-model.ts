import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { StaticLine } from "../App.js";
import type { LiveFeed } from "../live-feed.js";
import type { LiveModel } from "../model.js";

export interface LiveSnapshot {
  model: LiveModel;
  /** Finished lines to print with this render; `batch` changes when there are new ones. */
  printed: readonly StaticLine[];
  batch: number;
  /** Clock time when the snapshot was taken. */
  now: number;
}

/**
 * Hands React a snapshot of what `feed` heard, at most every `throttleMs`.
 * The feed listens from before the view mounts: what it heard since its last
 * take and the mount is drawn in the first throttled frame.
 */
export function useLiveModel(feed: LiveFeed, options: { throttleMs: number; firstLines: readonly StaticLine[] }): LiveSnapshot {
  const [snapshot, setSnapshot] = useState<LiveSnapshot>(() => ({
    model: feed.current(),
    printed: options.firstLines,
    batch: 0,
    now: feed.clock.now(),
  }));
  // The batch React has drawn: lines of a batch not drawn yet are carried into the next one, never lost.
  const drawn = useRef(-1);
  useLayoutEffect(() => {
    drawn.current = snapshot.batch;
  }, [snapshot.batch]);

  const { throttleMs } = options;
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const taken = feed.take();
      const now = feed.clock.now();
      setSnapshot((previous) => {
        const carried = drawn.current === previous.batch ? [] : previous.printed;
        if (taken.printed.length === 0 && carried.length === 0) return { ...previous, model: taken.model, now };
        return { model: taken.model, printed: [...carried, ...taken.printed], batch: previous.batch + 1, now };
      });
    };
    const schedule = () => {
      timer ??= setTimeout(flush, throttleMs);
    };
    const stopListening = feed.onNews(schedule);
    // What the feed heard before the view mounted.
    if (feed.hasNews()) schedule();
    return () => {
      stopListening();
      if (timer) clearTimeout(timer);
    };
  }, [feed, throttleMs]);

  return snapshot;
}
