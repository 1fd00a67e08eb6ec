import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Bus, DeliveriesStopped, DeliveryAttempted, EventCreated, RequestLogged } from "../../bus.js";
import type { Clock } from "../../runtime/clock.js";
import type { StaticLine } from "../App.js";
import { applyActions, createLiveModel, deliveryAction, eventAction, requestAction, stoppedAction, takePrinted, type LiveAction, type LiveModel } from "../model.js";

/** What the live view listens to: the instance's bus and clock. */
export interface LiveSource {
  bus: Bus;
  clock: Clock;
}

export interface LiveSnapshot {
  model: LiveModel;
  /** Finished lines to print with this render; `batch` changes when there are new ones. */
  printed: readonly StaticLine[];
  batch: number;
  /** Clock time when the snapshot was taken. */
  now: number;
}

/** Past this many queued actions they are folded into the model at once, so the queue stays bounded in a burst. */
const MAX_QUEUED = 2000;

/**
 * Subscribes to the bus and hands React a snapshot at most every `throttleMs`.
 * The listeners only queue a small action (O(1)); the reducers run on the
 * timer, so a burst of requests is not slowed down by the view.
 */
export function useLiveModel(source: LiveSource, options: { throttleMs: number; firstLines: readonly StaticLine[] }): LiveSnapshot {
  const [snapshot, setSnapshot] = useState<LiveSnapshot>(() => ({
    model: createLiveModel(),
    printed: options.firstLines,
    batch: 0,
    now: source.clock.now(),
  }));
  // The batch React has drawn: lines of a batch not drawn yet are carried into the next one, never lost.
  const drawn = useRef(-1);
  useLayoutEffect(() => {
    drawn.current = snapshot.batch;
  }, [snapshot.batch]);

  const model = useRef(snapshot.model);
  const { bus, clock } = source;
  const { throttleMs } = options;
  useEffect(() => {
    let queue: LiveAction[] = [];
    let timer: NodeJS.Timeout | undefined;

    const absorb = () => {
      if (queue.length === 0) return;
      model.current = applyActions(model.current, queue);
      queue = [];
    };
    const flush = () => {
      timer = undefined;
      absorb();
      const taken = takePrinted(model.current);
      model.current = taken.model;
      const now = clock.now();
      setSnapshot((previous) => {
        const carried = drawn.current === previous.batch ? [] : previous.printed;
        if (taken.printed.length === 0 && carried.length === 0) return { ...previous, model: taken.model, now };
        return { model: taken.model, printed: [...carried, ...taken.printed], batch: previous.batch + 1, now };
      });
    };
    const push = (action: LiveAction) => {
      queue.push(action);
      if (queue.length >= MAX_QUEUED) absorb();
      timer ??= setTimeout(flush, throttleMs);
    };

    const onEvent = (event: EventCreated) => push(eventAction(event));
    const onDelivery = (update: DeliveryAttempted) => push(deliveryAction(update));
    const onStopped = (stopped: DeliveriesStopped) => push(stoppedAction(stopped));
    const onRequest = (request: RequestLogged) => push(requestAction(request, clock.nowIso()));
    bus.on("event.created", onEvent);
    bus.on("delivery.attempted", onDelivery);
    bus.on("deliveries.stopped", onStopped);
    bus.on("request.logged", onRequest);
    return () => {
      bus.off("event.created", onEvent);
      bus.off("delivery.attempted", onDelivery);
      bus.off("deliveries.stopped", onStopped);
      bus.off("request.logged", onRequest);
      if (timer) clearTimeout(timer);
    };
  }, [bus, clock, throttleMs]);

  return snapshot;
}
