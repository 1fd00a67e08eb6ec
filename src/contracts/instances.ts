/** The answers of /v1/sandbox/instances (docs/testing.md, "Instances"); the body's schema is services/instances.ts `createInstanceSchema`, checked by `paysim start`'s own rules. */
import * as z from "zod";
import { idOf, timestampSchema } from "../domain/answer-schemas.js";

/** An instance as `GET /v1/sandbox/instances` lists it. */
export const instanceSchema = z.strictObject({
  id: idOf("ins"),
  object: z.literal("instance"),
  url: z.url({ protocol: /^http$/ }),
  /** The key of the instance's one company, in clear: the caller needs it to use the instance. */
  secret_key: z.string().regex(/^sk_test_/),
  /** The signing secret of its forward_to endpoints; null without forward_to. */
  signing_secret: z.string().regex(/^whsec_/).nullable(),
  created_at: timestampSchema,
});

/** What creating one answers: the listed fields and a one-time sign-in link to its own dashboard. */
export const createdInstanceSchema = instanceSchema.extend({ dashboard_login_url: z.url({ protocol: /^http$/ }) });

/** What `DELETE /v1/sandbox/instances/:id` answers. */
export const deletedInstanceSchema = z.strictObject({ id: idOf("ins"), object: z.literal("instance"), deleted: z.literal(true) });

export type InstanceResource = z.infer<typeof instanceSchema>;
export type CreatedInstanceResource = z.infer<typeof createdInstanceSchema>;
