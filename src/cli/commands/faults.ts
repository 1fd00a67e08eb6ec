import { Command, Option } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, table, text } from "../format.js";
import { wholeList } from "../whole-list.js";
import { consoleOutput, type Output } from "../output.js";
import type { FaultRule } from "../api-types.js";
import { DEFAULT_RETRY_AFTER_SECONDS, MAX_RETRY_AFTER_SECONDS } from "../../domain/faults.js";

interface AddFlags extends ClientFlags {
  path?: string;
  method?: string;
  times?: number | string;
  probability?: number | string;
  latency?: number | string;
  retryAfter?: number | string;
  seed?: number | string;
}

/** A number flag: sent as a number when it reads as one, else as given, for the server to refuse by name. */
function numberOrText(raw: string): number | string {
  const value = Number(raw);
  return raw.trim() !== "" && Number.isFinite(value) ? value : raw;
}

/** The rule as the API takes it: only what was given, the server applies the defaults. */
function ruleBody(fault: string, flags: AddFlags): Record<string, unknown> {
  const match = {
    ...(flags.method === undefined ? {} : { method: flags.method.toUpperCase() }),
    ...(flags.path === undefined ? {} : { path: flags.path }),
  };
  return {
    fault,
    ...(Object.keys(match).length === 0 ? {} : { match }),
    ...(flags.times === undefined ? {} : { times: flags.times }),
    ...(flags.probability === undefined ? {} : { probability: flags.probability }),
    ...(flags.latency === undefined ? {} : { latency_ms: flags.latency }),
    ...(flags.retryAfter === undefined ? {} : { retry_after_seconds: flags.retryAfter }),
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
  };
}

const matchText = (rule: FaultRule) => `${rule.match?.method ?? "any method"} ${rule.match?.path ?? "any /v1 path"}`;
const latencyText = (rule: FaultRule) => (rule.latency_ms === null || rule.latency_ms === undefined ? "—" : `${rule.latency_ms}ms`);
const retryAfterText = (rule: FaultRule) =>
  rule.retry_after_seconds === null || rule.retry_after_seconds === undefined ? "—" : `${text(rule.retry_after_seconds)}s`;

/** `paysim faults add | list | remove | clear`: the fault rules of the key's company (docs/faults.md). */
export function faultsCommand(output: Output = consoleOutput): Command {
  const add = withClientOptions(
    new Command("add")
      .description("Make paysim fail on purpose for matching requests")
      .argument("<fault>", "server_error, rate_limited, lost_response, timeout or latency")
      .addOption(new Option("--path <pattern>", "a /v1/… path, * for one segment (default: every /v1 path)"))
      .addOption(new Option("--method <method>", "GET, POST, DELETE… (default: any)"))
      .addOption(new Option("--times <n>", "how many matching requests it hits, 1–10000 (default 1)").argParser(numberOrText))
      .addOption(new Option("--probability <p>", "the chance a matching request is hit, 0–1 (default 1)").argParser(numberOrText))
      .addOption(new Option("--latency <ms>", "the wait of latency (required) and timeout (default 30000), 1–60000").argParser(numberOrText))
      .addOption(
        new Option(
          "--retry-after <seconds>",
          `the Retry-After of rate_limited, 0–${MAX_RETRY_AFTER_SECONDS} (default ${DEFAULT_RETRY_AFTER_SECONDS})`,
        ).argParser(numberOrText),
      )
      .addOption(new Option("--seed <n>", "an integer: the same seed hits the same requests in every run (default 0)").argParser(numberOrText)),
  )
    .addHelpText(
      "after",
      `
Faults: server_error (500, nothing done), rate_limited (429, Retry-After: --retry-after
seconds, nothing done), lost_response (the request is done and committed, then the connection closes
with no answer), timeout (no answer for --latency ms, then the connection closes;
nothing done), latency (the normal answer, --latency ms late).

Examples:
  $ paysim faults add lost_response --method POST --path /v1/payment_intents
  $ paysim faults add server_error --path /v1/payment_intents/*/capture --times 2
  $ paysim faults add latency --latency 2000 --probability 0.5 --seed 42 --times 100
  $ paysim faults add rate_limited --retry-after 0 --times 3`,
    )
    .action(async (fault: string, flags: AddFlags) => {
      const rule = await (await connect(flags, output)).call<FaultRule>("POST", "/v1/sandbox/faults", { body: ruleBody(fault, flags) });
      if (flags.json) return output.line(json(rule));
      for (const line of fields([
        ["id", text(rule.id)],
        ["fault", text(rule.fault)],
        ["match", matchText(rule)],
        ["times", text(rule.times)],
        ["probability", text(rule.probability)],
        ["latency", latencyText(rule)],
        ...(rule.fault === "rate_limited" ? [["retry after", retryAfterText(rule)] as [string, string]] : []),
      ]))
        output.line(line);
    });

  const list = withClientOptions(new Command("list").description("List the active fault rules, oldest (tried first) first"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim faults list
  $ paysim faults list --json`,
    )
    .action(async (flags: ClientFlags) => {
      const page = await wholeList<FaultRule>(await connect(flags, output), "/v1/sandbox/faults");
      if (flags.json) return output.line(json(page));
      if (page.data.length === 0) return output.line("No fault rules.");
      for (const line of table(page.data, [
        { header: "ID", value: (rule) => text(rule.id) },
        { header: "FAULT", value: (rule) => text(rule.fault) },
        { header: "METHOD", value: (rule) => rule.match?.method ?? "*" },
        { header: "PATH", value: (rule) => rule.match?.path ?? "*" },
        { header: "LEFT", value: (rule) => `${text(rule.remaining)}/${text(rule.times)}` },
        { header: "PROBABILITY", value: (rule) => text(rule.probability) },
        { header: "LATENCY", value: latencyText },
        { header: "RETRY-AFTER", value: retryAfterText },
      ]))
        output.line(line);
    });

  const remove = withClientOptions(new Command("remove").description("Remove one fault rule").argument("<flt_id>", "the rule's id"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim faults remove flt_3kTq0cXbVd9pHnRw2LmYs4Ae`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const answer = await (await connect(flags, output)).call<{ id?: string }>("DELETE", `/v1/sandbox/faults/${encodeURIComponent(id)}`);
      if (flags.json) return output.line(json(answer));
      output.line(`Removed ${text(answer.id ?? id)}.`);
    });

  const clear = withClientOptions(new Command("clear").description("Remove every fault rule of the company"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim faults clear`,
    )
    .action(async (flags: ClientFlags) => {
      const answer = await (await connect(flags, output)).call<{ deleted?: number }>("DELETE", "/v1/sandbox/faults");
      if (flags.json) return output.line(json(answer));
      output.line(`Removed ${text(answer.deleted)} fault rule${answer.deleted === 1 ? "" : "s"}.`);
    });

  return new Command("faults")
    .description("Fault rules: make paysim fail on purpose, to test a client's timeouts and retries")
    .addCommand(add)
    .addCommand(list)
    .addCommand(remove)
    .addCommand(clear)
    .addHelpText(
      "after",
      `
Rules belong to the key's company and are tried oldest first; a request gets at most
one fault. /v1/sandbox/…, /health and the checkout pages are never faulted.
paysim reset removes the rules too.

Examples:
  $ paysim faults add lost_response --method POST --path /v1/payment_intents
  $ paysim faults list
  $ paysim faults clear`,
    );
}
