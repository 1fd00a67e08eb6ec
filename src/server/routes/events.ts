import { Hono } from "hono";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import type { StoredEvent } from "../../store/repos/events.js";
import type { AppDeps, AppEnv } from "../env.js";
import { parseListQuery } from "../list-query.js";
import { list } from "../respond.js";

/** The event as the API shows it: the stored body, parsed. */
export function eventResource(event: StoredEvent): Record<string, unknown> {
  return JSON.parse(event.body) as Record<string, unknown>;
}

/**
 * /v1/events (SPEC §7). An event's own `request_id` is the request that caused
 * it, so a read answers with that one in the body; the `Request-Id` header names the read.
 */
export function eventRoutes({ store }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get("/", (c) => {
    const query = parseListQuery(c, { name: "type", values: EVENT_TYPES }, store.events.seqOf);
    const page = store.events.list(c.get("company").id, query);
    return list(c, page.rows.map(eventResource), page.hasMore);
  });

  app.get("/:id", (c) => {
    const id = c.req.param("id");
    const event = store.events.byId(c.get("company").id, id);
    if (!event) throw new ApiError("not_found", `No such event: "${id}".`);
    return c.json({ ...eventResource(event), deliveries: [] });
  });

  return app;
}
