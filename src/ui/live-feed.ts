import type { RequestLogged } from "../bus.js";
import type { PaysimInstance } from "../paysim.js";
import type { Clock } from "../runtime/clock.js";
import type { StoredEvent } from "../store/repos/events.js";
import type { DeliveryUpdate } from "../webhooks/dispatcher.js";
import { applyActions, createLiveModel, deliveryAction, eventAction, requestAction, takePrinted, type LiveAction, type LiveModel, type Printed } from "./model.js";

/** What the live view listens to: the instance's bus and clock, and the endpoints it starts with. */
export type LiveSource = Pick<PaysimInstance, "bus" | "clock" | "companies">;

/**
 * The live view's ears on the bus, without React or Ink: it starts listening
 * the moment it is made and keeps what it hears until the view takes it. The
 * view itself mounts later (Ink loads slowly), so `paysim start` makes the feed
 * from createPaysim's `onBusReady`, before the server listens: nothing
 * announced in between can then be missed.
 */
export interface LiveFeed {
  readonly clock: Clock;
  /** Folds everything heard so far into the model and hands over the finished lines not taken yet. */
  take(): { model: LiveModel; printed: Printed[] };
  /** The model with everything heard so far, its finished lines left for `take()`. */
  current(): LiveModel;
  /** Whether something was heard since the last `take()`. */
  hasNews(): boolean;
  /** Calls `listener` on each announcement (the view schedules a frame); replaces any earlier listener. Returns a function that removes it. */
  onNews(listener: () => void): () => void;
  /** Stops listening to the bus. */
  stop(): void;
}

/** Past this many queued actions they are folded into the model at once, so the queue stays bounded in a burst. */
const MAX_QUEUED = 2000;

/**
 * Starts listening to `instance.bus` now. The listeners only queue a small
 * action (masked copies, stamped with the clock time they were heard); the
 * reducers run when the view takes them, so a burst is not slowed down.
 *
 * @example
 * await createPaysim({ onBusReady: (parts) => void (feed = startLiveFeed(parts)) });
 * const { model, printed } = feed.take();
 */
export function startLiveFeed(instance: LiveSource): LiveFeed {
  const { bus, clock } = instance;
  let model = createLiveModel(instance.companies.flatMap((c) => c.endpoints));
  let queue: LiveAction[] = [];
  let news = false;
  let listener: (() => void) | undefined;

  const absorb = () => {
    if (queue.length === 0) return;
    model = applyActions(model, queue);
    queue = [];
  };
  const push = (action: LiveAction) => {
    queue.push(action);
    news = true;
    if (queue.length >= MAX_QUEUED) absorb();
    listener?.();
  };
  const onEvent = (event: StoredEvent) => push(eventAction(event));
  const onDelivery = (update: DeliveryUpdate) => push(deliveryAction(update));
  const onRequest = (request: RequestLogged) => push(requestAction(request, clock.nowIso()));
  bus.on("event.created", onEvent);
  bus.on("delivery.updated", onDelivery);
  bus.on("request.logged", onRequest);

  return {
    clock,
    take() {
      absorb();
      news = false;
      const taken = takePrinted(model);
      model = taken.model;
      return taken;
    },
    current() {
      absorb();
      return model;
    },
    hasNews: () => news,
    onNews(next) {
      listener = next;
      return () => {
        if (listener === next) listener = undefined;
      };
    },
    stop() {
      bus.off("event.created", onEvent);
      bus.off("delivery.updated", onDelivery);
      bus.off("request.logged", onRequest);
      listener = undefined;
    },
  };
}
