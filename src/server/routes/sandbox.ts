import { Hono } from "hono";
import { z } from "zod";
import { parseOrThrow } from "../../domain/validation.js";
import type { AppDeps, AppEnv } from "../env.js";
import { readJsonBody } from "../middleware/json-body.js";
import { ok } from "../respond.js";

export const MAX_ADVANCE_SECONDS = 31_536_000;

const advanceSchema = z.strictObject({
  seconds: z
    .number({ error: `seconds is required: an integer from 1 to ${MAX_ADVANCE_SECONDS} (one year).` })
    .int({ error: `seconds must be an integer from 1 to ${MAX_ADVANCE_SECONDS}.` })
    .min(1, { error: `seconds must be an integer from 1 to ${MAX_ADVANCE_SECONDS}.` })
    .max(MAX_ADVANCE_SECONDS, { error: `seconds must be an integer from 1 to ${MAX_ADVANCE_SECONDS} (one year).` }),
});

/** /v1/sandbox: controls a real provider does not have (SPEC §8). */
export function sandboxRoutes({ clock, advanceClock }: AppDeps) {
  const app = new Hono<AppEnv>();
  const clockResource = () => ({
    object: "clock",
    now: clock.nowIso(),
    offset_seconds: clock.offsetSeconds(),
    time_scale: clock.timeScale,
  });

  app.get("/clock", (c) => ok(c, clockResource()));

  app.post("/clock/advance", async (c) => {
    const { seconds } = parseOrThrow(advanceSchema, await readJsonBody(c));
    await advanceClock(seconds);
    return ok(c, clockResource());
  });

  return app;
}
