import type { Bus, DeliveryAttempted, EventCreated, RequestLogged, SandboxReset } from "../../bus.js";
import type { PaysimInstance } from "../../paysim.js";

/** What a reporter prints the banner from. */
export type StartedInstance = Pick<PaysimInstance, "url" | "companies"> & Partial<Pick<PaysimInstance, "dashboardLoginUrl">>;

/** The keys and signing secrets of a started instance: what its head hands back to their owner, printed exactly (docs/guarantees.md). */
export function credentialsOf(instance: StartedInstance): string[] {
  return instance.companies.flatMap((c) => [...(c.secretKey === undefined ? [] : [c.secretKey]), ...c.endpoints.map((e) => e.secret)]);
}

export interface Reporter {
  /**
   * Prints the head (the banner, or the "started" object) now that the instance is known, then
   * what was heard since the reporter started, then every fact as it is heard.
   */
  started(instance: StartedInstance): void;
  /** Stops listening to the instance. */
  stop(): void;
}

/** What a reporter says first, then about each fact on the bus. */
export interface ReporterHandlers {
  started(instance: StartedInstance): void;
  request(request: RequestLogged): void;
  event(event: EventCreated): void;
  delivery(update: DeliveryAttempted): void;
  reset(reset: SandboxReset): void;
}

/**
 * Listens to the facts a reporter prints from now on: `paysim start` makes a reporter
 * from createPaysim's `onBusReady`, so it also hears what jobs that fell due while paysim was
 * down announce during the start. What it hears before `started()` waits, in order, for the head.
 */
export function subscribe(bus: Bus, handlers: ReporterHandlers): Reporter {
  let held: (() => void)[] | undefined = [];
  const hear =
    <T>(handle: (fact: T) => void) =>
    (fact: T) =>
      held ? held.push(() => handle(fact)) : handle(fact);
  const onRequest = hear(handlers.request);
  const onEvent = hear(handlers.event);
  const onDelivery = hear(handlers.delivery);
  const onReset = hear(handlers.reset);
  bus.on("request.logged", onRequest);
  bus.on("event.created", onEvent);
  bus.on("delivery.attempted", onDelivery);
  bus.on("sandbox.reset", onReset);
  return {
    started(instance) {
      if (!held) return;
      handlers.started(instance);
      const waiting = held;
      held = undefined;
      for (const print of waiting) print();
    },
    stop() {
      bus.off("request.logged", onRequest);
      bus.off("event.created", onEvent);
      bus.off("delivery.attempted", onDelivery);
      bus.off("sandbox.reset", onReset);
    },
  };
}
