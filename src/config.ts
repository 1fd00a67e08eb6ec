import { readFileSync } from "node:fs";
import * as z from "zod";
import { chaosSchema } from "./domain/chaos.js";
import { EVENT_TYPES } from "./domain/events.js";
import { isSecretKey, isSigningSecret, SECRET_KEY_RULE, SIGNING_SECRET_RULE } from "./domain/secret-keys.js";
import { companyFieldSchemas, ConfigError } from "./domain/start-inputs.js";
import { CARD_NUMBER_IN_URL_RULE, hasNoCardNumber, isWebhookUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "./domain/webhook-url.js";
import { reportedProblem } from "./domain/validation.js";

const endpointSchema = z.lazy(() =>
  z.strictObject({
    url: z
      .string()
      .refine(isWebhookUrl, { error: `${WEBHOOK_URL_RULE} (at most ${WEBHOOK_URL_MAX_LENGTH} characters)` })
      .refine(hasNoCardNumber, { error: CARD_NUMBER_IN_URL_RULE }),
    secret: z.string().refine(isSigningSecret, { error: SIGNING_SECRET_RULE }).optional(),
    enabled_events: z
      .array(z.enum(["*", ...EVENT_TYPES], { error: `must be "*" or a known event type (${EVENT_TYPES.join(", ")})` }))
      .min(1, { error: 'must list at least one event type, or "*"' })
      .default(["*"]),
    chaos: chaosSchema().nullable().optional(),
  }),
);

const companySchema = z.lazy(() => {
  const companyFields = companyFieldSchemas();
  return z.strictObject({
    name: companyFields.name,
    currency: companyFields.currency.default("EUR"),
    secret_key: z.string().refine(isSecretKey, { error: SECRET_KEY_RULE }).optional(),
    webhook_endpoints: z.array(endpointSchema).default([]),
  });
});

const configSchema = z.lazy(() =>
  z.strictObject({ companies: z.array(companySchema).min(1, { error: "must declare at least one company" }) }).superRefine((config, ctx) => {
    const names = new Set<string>();
    const keys = new Set<string>();
    config.companies.forEach((company, i) => {
      if (names.has(company.name)) ctx.addIssue({ code: "custom", path: ["companies", i, "name"], message: `"${company.name}" is declared twice` });
      names.add(company.name);
      if (company.secret_key !== undefined) {
        if (keys.has(company.secret_key)) ctx.addIssue({ code: "custom", path: ["companies", i, "secret_key"], message: "is used by another company" });
        keys.add(company.secret_key);
      }
    });
  }),
);

/**
 * A config as written (the JSON of `--config`, or `startPaysim({ config })`): companies, their keys
 * and webhook endpoints; the first company is the default. What has a default (`currency`,
 * `webhook_endpoints`, an endpoint's `enabled_events`) may be left out.
 */
export type PaysimConfig = z.input<typeof configSchema>;
/** A config once checked, every default filled in: what paysim builds companies from. */
export type ParsedConfig = z.output<typeof configSchema>;

/** `companies[0].currency` from a zod path. */
function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), "");
}

/** Validates a config object; `source` names it in errors. */
export function parseConfig(value: unknown, source: string): ParsedConfig {
  const result = configSchema.safeParse(value);
  if (result.success) return result.data;
  const problem = reportedProblem(result.error);
  if (problem.unknownField) throw new ConfigError(`Invalid config file ${source}: unknown field "${fieldName(problem.path)}".`);
  throw new ConfigError(`Invalid config file ${source}: ${fieldName(problem.path) || "(top level)"} ${problem.message}.`);
}

/** Reads and validates a JSON config file. */
export function loadConfigFile(path: string): ParsedConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Invalid config file ${path}: not valid JSON (${(error as Error).message}).`);
  }
  return parseConfig(value, path);
}
