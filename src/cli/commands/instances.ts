import { randomUUID } from "node:crypto";
import { Command, Option } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, table, text } from "../format.js";
import { wholeList } from "../whole-list.js";
import { consoleOutput, type Output } from "../output.js";
import { collect, timeScale } from "../server-options.js";
import type { CreatedInstanceResource, InstanceResource } from "../api-types.js";

interface CreateFlags extends ClientFlags {
  name?: string;
  currency?: string;
  secretKey?: string;
  webhookSecret?: string;
  forwardTo?: string[];
  chaos?: string;
  timeScale?: number;
  payouts?: "auto" | "manual";
}

/**
 * The body of `POST /v1/sandbox/instances` from the flags, named as `paysim start` names them. The
 * server checks every field by `paysim start`'s rules; only what was given is sent.
 */
function instanceBody(flags: CreateFlags): Record<string, unknown> {
  const body = {
    name: flags.name,
    currency: flags.currency,
    secret_key: flags.secretKey,
    webhook_secret: flags.webhookSecret,
    forward_to: flags.forwardTo,
    chaos: flags.chaos,
    time_scale: flags.timeScale,
    payouts: flags.payouts,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

export function instancesCommand(output: Output = consoleOutput): Command {
  // No environment variables here: PAYSIM_SECRET_KEY and the like name the paysim this command talks to.
  const create = withClientOptions(
    new Command("create")
      .description("Start another whole paysim inside the running one, on its own port, with in-memory data; prints its URL and key")
      .addOption(new Option("--name <name>", 'its company\'s name (default "Sandbox Merchant")'))
      .addOption(new Option("--currency <code>", "its company's currency (default EUR)"))
      .addOption(new Option("--secret-key <key>", "its company's key (sk_test_…); generated when absent"))
      .addOption(new Option("--webhook-secret <whsec>", "signing secret of the --forward-to endpoints"))
      .addOption(new Option("--forward-to <url>", "forward its events to this URL (repeatable)").argParser(collect))
      .addOption(new Option("--chaos <spec>", "webhook chaos on the --forward-to endpoints, e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42"))
      .addOption(new Option("--time-scale <n>", "run its clock n times faster than real time").argParser(timeScale))
      .addOption(new Option("--payouts <mode>", "auto: payouts move by their token's outcome; manual: only when told").choices(["auto", "manual"])),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim instances create
  $ paysim instances create --name "Worker 3" --secret-key sk_test_worker_3 --payouts manual
  $ paysim instances create --forward-to http://localhost:3000/webhooks --webhook-secret whsec_test --json`,
    )
    .action(async (flags: CreateFlags) => {
      const client = await connect(flags, output);
      const instance = await client.call<CreatedInstanceResource>("POST", "/v1/sandbox/instances", {
        body: instanceBody(flags),
        idempotencyKey: `paysim-cli-${randomUUID()}`,
      });
      const credentials = credentialsOf([instance]);
      if (flags.json) return output.line(json(instance), credentials);
      output.line(`Started ${text(instance.id)} at ${text(instance.url)}`);
      for (const line of instanceDetail(instance)) output.line(line, credentials);
      output.line(
        `Use it with --url ${text(instance.url)} --key ${text(instance.secret_key)}; stop it with: paysim instances stop ${text(instance.id)}`,
        credentials,
      );
    });

  const list = withClientOptions(new Command("list").description("List the running instances this company started, oldest first"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim instances list
  $ paysim instances list --json`,
    )
    .action(async (flags: ClientFlags) => {
      const page = await wholeList<InstanceResource>(await connect(flags, output), "/v1/sandbox/instances");
      const credentials = credentialsOf(page.data);
      if (flags.json) return output.line(json(page), credentials);
      if (page.data.length === 0) return output.line("No instances running.");
      const rows = table(page.data, [
        { header: "ID", value: (i) => text(i.id) },
        { header: "URL", value: (i) => text(i.url) },
        { header: "KEY", value: (i) => text(i.secret_key) },
        { header: "SIGNING SECRET", value: (i) => text(i.signing_secret ?? "—") },
        { header: "CREATED", value: (i) => text(i.created_at) },
      ]);
      for (const line of rows) output.line(line, credentials);
    });

  const stop = withClientOptions(
    new Command("stop").description("Stop an instance: its port closes and its data is gone").argument("<ins_id>", "the instance's id"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim instances stop ins_4bN0Qm1XcZr7TfW2LpYs9AdK`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const answer = await (await connect(flags, output)).call<{ id?: string }>("DELETE", `/v1/sandbox/instances/${encodeURIComponent(id)}`);
      if (flags.json) return output.line(json(answer));
      output.line(`Stopped ${text(answer.id ?? id)}: its port is closed and its data is gone.`);
    });

  return new Command("instances")
    .description("Whole paysims started inside the running one: one per test worker")
    .addCommand(create)
    .addCommand(list)
    .addCommand(stop)
    .addHelpText(
      "after",
      `
Each instance has its own port, company, key, clock and in-memory data, shares nothing with the
paysim that started it, and stops when that paysim stops.

Examples:
  $ paysim instances create --json
  $ paysim instances list
  $ paysim instances stop ins_4bN0Qm1XcZr7TfW2LpYs9AdK`,
    );
}

/** The instances' keys and signing secrets: handed back to the company that started them, printed exactly (docs/guarantees.md). */
function credentialsOf(instances: readonly InstanceResource[]): string[] {
  return instances.flatMap((instance) => [instance.secret_key, ...(instance.signing_secret === null ? [] : [instance.signing_secret])]);
}

function instanceDetail(instance: InstanceResource & Partial<CreatedInstanceResource>): string[] {
  return fields([
    ["id", text(instance.id)],
    ["url", text(instance.url)],
    ["key", text(instance.secret_key)],
    ["signing secret", text(instance.signing_secret ?? "—")],
    ["dashboard", text(instance.dashboard_login_url)],
    ["created_at", text(instance.created_at)],
  ]);
}
