import type { Bus, DeliveriesStopped, DeliveryAttempted, EventCreated, RequestLogged, RequestStarted, SandboxReset } from "../bus.js";
import type { Clock } from "../runtime/clock.js";
import {
  applyActions,
  createLiveModel,
  deliveryAction,
  eventAction,
  requestAction,
  resetAction,
  startedAction,
  stoppedAction,
  takePrinted,
  type LiveAction,
  type LiveModel,
  type Printed,
} from "./model.js";

/** What the live view listens to: the instance's bus, and its clock for the countdowns. */
export interface LiveSource {
  bus: Bus;
  clock: Clock;
}

/**
 * The live view's ears on the bus, without React or Ink: it starts listening
 * the moment it is made and keeps what it hears until the view takes it. The
 * view itself mounts later (Ink loads slowly), so `paysim start` makes the feed
 * from createPaysim's `onBusReady`, before the server answers: nothing
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
  let model = createLiveModel();
  let queue: LiveAction[] = [];
  let news = false;
  let listener: (() => void) | undefined;

  const absorb = () => {
    if (queue.length === 0) return;
    model = applyActions(model, queue);
    queue = [];
  };
  /** Queues an action; one that shows nothing by itself (a request began) calls for no frame. */
  const push = (action: LiveAction, shows = true) => {
    queue.push(action);
    if (queue.length >= MAX_QUEUED) absorb();
    if (!shows) return;
    news = true;
    listener?.();
  };
  const onEvent = (event: EventCreated) => push(eventAction(event));
  const onDelivery = (update: DeliveryAttempted) => push(deliveryAction(update));
  const onStopped = (stopped: DeliveriesStopped) => push(stoppedAction(stopped));
  const onStarted = (started: RequestStarted) => push(startedAction(started), false);
  const onRequest = (request: RequestLogged) => push(requestAction(request, clock.nowIso()));
  const onReset = (reset: SandboxReset) => push(resetAction(reset, clock.nowIso()));
  bus.on("event.created", onEvent);
  bus.on("delivery.attempted", onDelivery);
  bus.on("deliveries.stopped", onStopped);
  bus.on("request.started", onStarted);
  bus.on("request.logged", onRequest);
  bus.on("sandbox.reset", onReset);

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
      bus.off("delivery.attempted", onDelivery);
      bus.off("deliveries.stopped", onStopped);
      bus.off("request.started", onStarted);
      bus.off("request.logged", onRequest);
      bus.off("sandbox.reset", onReset);
      listener = undefined;
    },
  };
}
