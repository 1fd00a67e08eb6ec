import { Command, Option } from "commander";
import { CliError, UsageError, createApiClient, resolveConnection, withConnectionOptions, type ConnectionFlags } from "../client.js";
import { consoleOutput, type Output } from "../output.js";
import { wholeList } from "../whole-list.js";
import type { Endpoint } from "../api-types.js";

interface EnvFlags extends ConnectionFlags {
  shell?: boolean;
  json?: boolean;
}

/**
 * `value` as one word of a POSIX shell, whatever it holds: in single quotes, each `'` written
 * `'\''` (a key may hold `'`, `$` or `\`, which double quotes would expand).
 *
 * @example
 * shellQuoted("sk_test_it's") // "'sk_test_it'\\''s'"
 */
export function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The variables that point a step at the running paysim, as `paysim exec` gives them to its
 * command: its URL, its key, and the signing secret its webhook endpoints share (the one of the
 * `--forward-to` endpoints), when they share one.
 */
function environmentOf(url: string, key: string, endpoints: readonly Endpoint[]): Record<string, string> {
  const env: Record<string, string> = { PAYSIM_URL: url, PAYSIM_SECRET_KEY: key };
  const secrets = new Set(endpoints.map((endpoint) => endpoint.secret));
  if (secrets.size === 1) env.PAYSIM_WEBHOOK_SECRET = [...secrets][0]!;
  return env;
}

/** A line break (LF, CR, U+2028, U+2029, NEL) or any other control character. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/**
 * Refuses, in one line, a value about to be printed that holds a line break or another control
 * character: appended to $GITHUB_ENV or a .env file, a line break would start a variable of the
 * server's choosing. paysim itself never makes such a value, so whatever answered is not the
 * paysim it seems; the value itself is not repeated.
 */
function refuseUnprintable(values: readonly { what: string; value: string }[]): void {
  const bad = values.find(({ value }) => UNPRINTABLE.test(value));
  if (bad === undefined) return;
  throw new CliError(
    `${bad.what} holds a line break or control character, which no paysim value has; nothing was printed, as such a value could add lines to $GITHUB_ENV or a .env file. Check that the server found is a paysim.`,
  );
}

/** `paysim env [--shell|--json]`: the environment of the running paysim, for a CI step `paysim exec` does not start. */
export function envCommand(output: Output = consoleOutput): Command {
  return withConnectionOptions(
    new Command("env")
      .description("Print PAYSIM_URL, PAYSIM_SECRET_KEY and the webhook signing secret of the running paysim")
      .addOption(new Option("--shell", "print export lines for a POSIX shell, each value quoted"))
      .addOption(new Option("--json", "print one JSON object: the variables and every webhook endpoint's signing secret")),
  )
    .addHelpText(
      "after",
      `
Without --shell or --json: NAME=value lines, the format of a .env file and of $GITHUB_ENV.
PAYSIM_WEBHOOK_SECRET is printed when the webhook endpoints share one signing secret, as the
--forward-to endpoints do; --json lists every endpoint's.

Examples:
  $ paysim env
  $ eval "$(paysim env --shell)"
  $ paysim env >> "$GITHUB_ENV"
  $ paysim env --json`,
    )
    .action(async (flags: EnvFlags) => {
      if (flags.shell && flags.json) throw new UsageError("--shell and --json print different formats: give one of them.");
      const connection = await resolveConnection(flags);
      for (const line of connection.notice ?? []) output.error(`paysim: ${line}`);
      // The endpoints come from the server itself: it answers, and its secrets are the ones it signs with now.
      const endpoints = (await wholeList<Endpoint>(createApiClient(connection), "/v1/webhook_endpoints")).data;
      const env = environmentOf(connection.url, connection.key, endpoints);
      // Every form refuses such a value alike: a JSON consumer (jq -r) would print it raw too.
      refuseUnprintable([
        { what: "The URL", value: connection.url },
        { what: "The key", value: connection.key },
        ...endpoints.flatMap(({ id, url, secret }) => [
          { what: "A webhook endpoint's id", value: id },
          { what: `The URL of webhook endpoint ${JSON.stringify(id)}`, value: url },
          { what: `The signing secret of webhook endpoint ${JSON.stringify(id)}`, value: secret },
        ]),
      ]);
      // Handed back to their owner, the key and the secrets are printed exactly as they are (docs/guarantees.md).
      const credentials = [connection.key, ...endpoints.map((endpoint) => endpoint.secret)];
      if (flags.json) {
        const webhookEndpoints = endpoints.map(({ id, url, secret }) => ({ id, url, secret }));
        return output.line(JSON.stringify({ ...env, webhook_endpoints: webhookEndpoints }, null, 2), credentials);
      }
      for (const [name, value] of Object.entries(env)) output.line(flags.shell ? `export ${name}=${shellQuoted(value)}` : `${name}=${value}`, credentials);
    });
}
