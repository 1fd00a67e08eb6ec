/** The contracts of /v1/sandbox/instances (docs/testing.md, "Instances"): the body, checked by `paysim start`'s own rules, and the answers. */
import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { listQuerySchema } from "../../contracts/common.js";
import { CHAOS_SPEC_EXAMPLE, CHAOS_SPEC_PATTERN, chaosSchema } from "../../domain/chaos.js";
import type { CredentialFields } from "../../domain/masking.js";
import { isSecretKey, isSigningSecret, SECRET_KEY_PATTERN, SIGNING_SECRET_PATTERN } from "../../domain/secret-keys.js";
import { companyFieldSchemas, startInputMessage, startInputProblem, type StartInputs } from "../../domain/start-inputs.js";
import { isTimeScale, MAX_TIME_SCALE, TIME_SCALE_RANGE } from "../../domain/time-scale.js";
import { need, needOneOf } from "../../domain/validation.js";
import { WEBHOOK_URL_DESCRIPTION, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_PATTERN } from "../../domain/webhook-url.js";

const PAYOUT_MODES = ["auto", "manual"] as const;

/** The body's name for each start option that `startInputProblem` checks. */
const FIELD_OF: Record<keyof StartInputs, string> = { secretKey: "secret_key", webhookSecret: "webhook_secret", forwardTo: "forward_to", chaos: "chaos" };

/** A `--chaos` spec as the OpenAPI document shows it: its settings' shapes (each once, delay's min not above its max, in words). */
const CHAOS_SPEC_SCHEMA = {
  type: "string",
  description: `A --chaos spec such as ${CHAOS_SPEC_EXAMPLE}: each setting at most once; delay=min-max with min not above max, or one value.`,
  pattern: CHAOS_SPEC_PATTERN,
};
/** A chaos object, as a webhook endpoint takes it. */
const chaosObjectJsonSchema = () => (({ $schema: _dialect, ...rest }) => rest)(z.toJSONSchema(chaosSchema(""), { io: "input", target: "draft-2020-12" }));

/**
 * The body of `POST /v1/sandbox/instances`: every field optional, each checked by the rule of the
 * matching `paysim start` option or config field (the same checks, the same words, the field named).
 */
export const createInstanceSchema = z.lazy(() => {
  const company = companyFieldSchemas(true);
  return (
    z
      .strictObject({
        name: company.name.optional(),
        currency: company.currency.optional(),
        // The superRefine below checks keys, secrets, URLs and chaos; each `meta` tells the OpenAPI document its shape.
        secret_key: z
          .string({ error: need("secret_key", "a string such as sk_test_x") })
          .meta({ pattern: SECRET_KEY_PATTERN })
          .optional(),
        webhook_secret: z
          .string({ error: need("webhook_secret", "a string such as whsec_acme") })
          .meta({ pattern: SIGNING_SECRET_PATTERN })
          .optional(),
        forward_to: z
          .array(
            z
              .string({ error: need("forward_to", "a list of URLs") })
              .meta({ format: "uri", pattern: WEBHOOK_URL_PATTERN, maxLength: WEBHOOK_URL_MAX_LENGTH, description: WEBHOOK_URL_DESCRIPTION }),
            { error: need("forward_to", "a list of URLs") },
          )
          .optional(),
        chaos: z
          .union([z.string(), z.looseObject({})], { error: need("chaos", 'a --chaos spec such as "duplicate=0.2,seed=42", or a chaos object') })
          .meta({ anyOf: [CHAOS_SPEC_SCHEMA, chaosObjectJsonSchema()] })
          .optional(),
        time_scale: z
          .number({ error: need("time_scale", TIME_SCALE_RANGE) })
          .refine(isTimeScale, { error: `time_scale must be ${TIME_SCALE_RANGE}, e.g. 60.` })
          .meta({ exclusiveMinimum: 0, maximum: MAX_TIME_SCALE })
          .optional(),
        payouts: z.enum(PAYOUT_MODES, { error: needOneOf("payouts", PAYOUT_MODES) }).optional(),
      })
      // Chaos applies to the forward_to endpoints, so it needs at least one.
      .meta({ allOf: [{ if: { required: ["chaos"] }, then: { required: ["forward_to"], properties: { forward_to: { minItems: 1 } } } }] })
      .superRefine((input, ctx) => {
        const problem = startInputProblem({
          secretKey: input.secret_key,
          webhookSecret: input.webhook_secret,
          forwardTo: input.forward_to,
          chaos: input.chaos,
        });
        if (problem) ctx.addIssue({ code: "custom", path: [FIELD_OF[problem.input]], message: startInputMessage(problem, (field) => FIELD_OF[field]) });
      })
  );
});

export type InstanceInput = z.output<typeof createInstanceSchema>;

/** The body's credentials: the new instance's key and signing secret, used exactly as sent (docs/guarantees.md). */
export const INSTANCE_CREDENTIALS: CredentialFields = { secret_key: isSecretKey, webhook_secret: isSigningSecret };

/** An instance as `GET /v1/sandbox/instances` lists it. */
export const instanceSchema = z.lazy(() =>
  z.strictObject({
    id: idOf("ins"),
    object: z.literal("instance"),
    url: z.url({ protocol: /^http$/ }),
    /** The key of the instance's one company, in clear: the caller needs it to use the instance. */
    secret_key: z.string().regex(/^sk_test_/),
    /** The signing secret of its forward_to endpoints; null without forward_to. */
    signing_secret: z
      .string()
      .regex(/^whsec_/)
      .nullable(),
    created_at: timestampSchema,
  }),
);

/** What creating one answers: the listed fields and a one-time sign-in link to its own dashboard. */
export const createdInstanceSchema = z.lazy(() => instanceSchema.unwrap().extend({ dashboard_login_url: z.url({ protocol: /^http$/ }) }));

/** What `DELETE /v1/sandbox/instances/:id` answers. */
export const deletedInstanceSchema = z.lazy(() => z.strictObject({ id: idOf("ins"), object: z.literal("instance"), deleted: z.literal(true) }));

export type InstanceResource = z.infer<typeof instanceSchema>;
export type CreatedInstanceResource = z.infer<typeof createdInstanceSchema>;
export type DeletedInstanceResource = z.infer<typeof deletedInstanceSchema>;

/** The query of `GET /v1/sandbox/instances`: a page of the running instances, oldest first. */
export const listInstancesQuery = listQuerySchema("ins");
