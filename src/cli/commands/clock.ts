import { Command } from "commander";
import { formatSeconds, InvalidDurationError, parseDuration } from "../../domain/duration.js";
import { connect, UsageError, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import type { ClockResource } from "../api-types.js";

export function clockCommand(output: Output = consoleOutput): Command {
  const print = (clock: ClockResource, flags: ClientFlags) => {
    if (flags.json) return output.line(json(clock));
    for (const line of clockLines(clock)) output.line(line);
  };

  const show = withClientOptions(new Command("show").description("Show the virtual time of the running server"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim clock show
  $ paysim clock show --json`,
    )
    .action(async (flags: ClientFlags) => {
      print(await (await connect(flags, output)).call<ClockResource>("GET", "/v1/sandbox/clock"), flags);
    });

  const advance = withClientOptions(
    new Command("advance")
      .description("Move the virtual clock forward; answers once the work that fell due is done")
      .argument("<duration>", "a whole number of seconds with a unit: 90s, 10m, 6h, 1d (at most 365d)"),
  )
    .addHelpText(
      "after",
      `
Due payout moves are made and due webhook attempts started before this returns,
so the next command sees their results.

Examples:
  $ paysim clock advance 90s
  $ paysim clock advance 6h
  $ paysim clock advance 1d --json`,
    )
    .action(async (duration: string, flags: ClientFlags) => {
      let seconds: number;
      try {
        seconds = parseDuration(duration);
      } catch (error) {
        if (error instanceof InvalidDurationError) throw new UsageError(error.message);
        throw error;
      }
      print(await (await connect(flags, output)).call<ClockResource>("POST", "/v1/sandbox/clock/advance", { body: { seconds } }), flags);
    });

  return new Command("clock")
    .description("The virtual clock that all paysim time reads")
    .addCommand(show)
    .addCommand(advance)
    .addHelpText(
      "after",
      `
Examples:
  $ paysim clock show
  $ paysim clock advance 6h`,
    );
}

function clockLines(clock: ClockResource): string[] {
  const offset = typeof clock.offset_seconds === "number" ? `${formatSeconds(clock.offset_seconds)} (${clock.offset_seconds} s)` : "—";
  return fields([
    ["now", text(clock.now)],
    ["offset", offset],
    ["time scale", text(clock.time_scale)],
  ]);
}
