import { readFileSync } from "node:fs";
import * as z from "zod";
import { chaosSchema, parseChaosSpec, type Chaos } from "./domain/chaos.js";
import { EVENT_TYPES } from "./domain/events.js";
import { maskText } from "./domain/masking.js";
import { CURRENCY_CODES } from "./domain/money.js";
import { isSecretKey, isSigningSecret, SECRET_KEY_RULE, SIGNING_SECRET_RULE } from "./domain/secret-keys.js";
import { CARD_NUMBER_IN_URL_RULE, hasNoCardNumber, isWebhookUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "./domain/webhook-url.js";
import { reportedProblem } from "./domain/validation.js";

/** A bad config file (the message names the file and the field), or a bad start option (it names the option). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const endpointSchema = z.strictObject({
  url: z
    .string()
    .refine(isWebhookUrl, { error: `${WEBHOOK_URL_RULE} (at most ${WEBHOOK_URL_MAX_LENGTH} characters)` })
    .refine(hasNoCardNumber, { error: CARD_NUMBER_IN_URL_RULE }),
  secret: z.string().refine(isSigningSecret, { error: SIGNING_SECRET_RULE }).optional(),
  enabled_events: z
    .array(z.enum(["*", ...EVENT_TYPES], { error: `must be "*" or a known event type (${EVENT_TYPES.join(", ")})` }))
    .min(1, { error: "must list at least one event type, or \"*\"" })
    .default(["*"]),
  chaos: chaosSchema().nullable().optional(),
});

const NAME_RULE = "must be a non-empty string";
const CURRENCY_RULE = "must be an upper-case ISO 4217 code such as EUR";

/**
 * A company's `name` and `currency`, as a config file declares them and `POST /v1/sandbox/instances`
 * takes them. With a `label` each message starts with the field's name and ends with a full stop, as
 * the API's do; without one they start with "must", for a config file's messages, which name the
 * field themselves. The currency has no default here: each caller gives its own.
 */
export function companyFieldSchemas(label?: boolean) {
  const say = (field: string, rule: string) => (label ? `${field} ${rule}.` : rule);
  return {
    // Masked as any text paysim takes in: a name is stored and shown. Keys and secrets are not
    // text but credentials, compared as given (and never stored in clear or shown).
    // The pattern tells the OpenAPI document what the trim and the minimum say together: not blank.
    name: z.string({ error: say("name", NAME_RULE) }).trim().min(1, { error: say("name", NAME_RULE) }).max(200).meta({ pattern: "\\S" }).transform(maskText),
    currency: z.enum(CURRENCY_CODES, { error: say("currency", CURRENCY_RULE) }),
  };
}

const companyFields = companyFieldSchemas();

const companySchema = z.strictObject({
  name: companyFields.name,
  currency: companyFields.currency.default("EUR"),
  secret_key: z.string().refine(isSecretKey, { error: SECRET_KEY_RULE }).optional(),
  webhook_endpoints: z.array(endpointSchema).default([]),
});

const configSchema = z
  .strictObject({ companies: z.array(companySchema).min(1, { error: "must declare at least one company" }) })
  .superRefine((config, ctx) => {
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
  });

/**
 * A config as written (the JSON of `--config`, or `startPaysim({ config })`): companies, their keys
 * and webhook endpoints; the first company is the default. What has a default (`currency`,
 * `webhook_endpoints`, an endpoint's `enabled_events`) may be left out.
 */
export type PaysimConfig = z.input<typeof configSchema>;
/** A config once checked, every default filled in: what paysim builds companies from. */
export type ParsedConfig = z.output<typeof configSchema>;
export type CompanyConfig = ParsedConfig["companies"][number];
export type EndpointConfig = CompanyConfig["webhook_endpoints"][number];

/** The start options that are not a config file but follow the same rules as its fields. */
export interface StartInputs {
  secretKey?: string | undefined;
  webhookSecret?: string | undefined;
  forwardTo?: readonly string[] | undefined;
  /** Chaos on the forwardTo endpoints: a `--chaos` spec, or the settings object. */
  chaos?: string | object | undefined;
}

export interface StartInputProblem {
  input: keyof StartInputs;
  /** The offending URL, for forwardTo only: a key or secret is never repeated back. */
  url?: string;
  rule: string;
}

/**
 * The first start option that breaks its rule (the same rules as the config file's
 * fields and the API's), or undefined. Callers name the option their own way:
 * `--secret-key` on the command line, `secretKey` in startPaysim().
 */
export function startInputProblem(inputs: StartInputs): StartInputProblem | undefined {
  if (inputs.secretKey !== undefined && !isSecretKey(inputs.secretKey)) return { input: "secretKey", rule: SECRET_KEY_RULE };
  if (inputs.webhookSecret !== undefined && !isSigningSecret(inputs.webhookSecret)) return { input: "webhookSecret", rule: SIGNING_SECRET_RULE };
  const badUrl = inputs.forwardTo?.find((url) => !isWebhookUrl(url));
  if (badUrl !== undefined) return { input: "forwardTo", url: badUrl, rule: `${WEBHOOK_URL_RULE} (at most ${WEBHOOK_URL_MAX_LENGTH} characters)` };
  // The URL itself is not repeated: it holds a card number.
  if (inputs.forwardTo?.some((url) => !hasNoCardNumber(url))) return { input: "forwardTo", rule: CARD_NUMBER_IN_URL_RULE };
  if (inputs.chaos !== undefined) {
    const checked = startChaos(inputs.chaos);
    if ("problem" in checked) return { input: "chaos", rule: `is refused: ${checked.problem}` };
    if (!inputs.forwardTo?.length) return { input: "chaos", rule: "is refused: it applies to the forward-to endpoints only, and none is given" };
  }
  return undefined;
}

/**
 * The message for a start option that breaks its rule, the option named by `nameOf` (a flag, an
 * option of startPaysim(), a field of an API body).
 */
export function startInputMessage(problem: StartInputProblem, nameOf: (input: keyof StartInputs) => string): string {
  return `${nameOf(problem.input)}${problem.url === undefined ? "" : ` ${JSON.stringify(problem.url)}`} ${problem.rule}.`;
}

/** The chaos of the forwardTo endpoints, from a `--chaos` spec or a settings object, or what is wrong with it. */
export function startChaos(chaos: string | object): { chaos: Chaos } | { problem: string } {
  if (typeof chaos === "string") return parseChaosSpec(chaos);
  const result = chaosSchema("").safeParse(chaos);
  if (result.success) return { chaos: result.data };
  const problem = reportedProblem(result.error);
  return { problem: problem.unknownField ? `has an unknown setting "${String(problem.path.at(-1))}"` : problem.message.replace(/\.$/, "") };
}

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
