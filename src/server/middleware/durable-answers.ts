import { createMiddleware } from "hono/factory";
import type { Store } from "../../store/index.js";
import type { AppEnv } from "../env.js";

/**
 * Holds every answer until what it may have seen is durable: reads share the
 * connection with the open group commit, so an answer could otherwise show
 * what a crash would lose.
 *
 * @example
 * app.use(durableAnswers(store));
 */
export function durableAnswers(store: Store) {
  return createMiddleware<AppEnv>(async function durableAnswersMiddleware(_c, next) {
    await next();
    const durable = store.whenOpenGroupDurable();
    if (durable) await durable;
  });
}
