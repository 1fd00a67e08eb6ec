import * as z from "zod";
import { chaosSchema, parseChaosSpec, type Chaos } from "./chaos.js";
import { maskText } from "./masking.js";
import { CURRENCY_CODES } from "./money.js";
import { isSecretKey, isSigningSecret, SECRET_KEY_RULE, SIGNING_SECRET_RULE } from "./secret-keys.js";
import { reportedProblem } from "./validation.js";
import { CARD_NUMBER_IN_URL_RULE, hasNoCardNumber, isWebhookUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "./webhook-url.js";

/**
 * The rules of what a start takes beside the database: a company's fields, the default company's
 * key, the forward-to endpoints with their secret and chaos. One definition for a config file
 * (config.ts), the start options (`paysim start`, `startPaysim()`) and the body of
 * `POST /v1/sandbox/instances` (resources/instances/service.ts), so all three refuse alike.
 */

/** A bad config file (the message names the file and the field), or a bad start option (it names the option). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

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
    // text but credentials, kept exactly as given and never logged (docs/guarantees.md).
    // The pattern tells the OpenAPI document what the trim and the minimum say together: not blank.
    name: z
      .string({ error: say("name", NAME_RULE) })
      .trim()
      .min(1, { error: say("name", NAME_RULE) })
      .max(200)
      .meta({ pattern: "\\S" })
      .transform(maskText),
    currency: z.enum(CURRENCY_CODES, { error: say("currency", CURRENCY_RULE) }),
  };
}

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
