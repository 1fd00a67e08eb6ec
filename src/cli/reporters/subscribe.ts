import type { Bus, DeliveryAttempted, EventCreated, RequestLogged } from "../../bus.js";

export interface Reporter {
  /** Stops listening to the instance. */
  stop(): void;
}

/** What a reporter says about each fact on the bus. */
export interface ReporterHandlers {
  request(request: RequestLogged): void;
  event(event: EventCreated): void;
  delivery(update: DeliveryAttempted): void;
}

/** Listens to the three facts a reporter prints; `stop()` lets go of all of them. */
export function subscribe(bus: Bus, handlers: ReporterHandlers): Reporter {
  bus.on("request.logged", handlers.request);
  bus.on("event.created", handlers.event);
  bus.on("delivery.attempted", handlers.delivery);
  return {
    stop() {
      bus.off("request.logged", handlers.request);
      bus.off("event.created", handlers.event);
      bus.off("delivery.attempted", handlers.delivery);
    },
  };
}
