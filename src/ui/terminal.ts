import isInCi from "is-in-ci";

/**
 * What the terminal we write to can take: the one rule for the live view, the log lines and the
 * CLI's tables. Colour only on a terminal, not in CI, and only when NO_COLOR is not set
 * (https://no-color.org).
 *
 * Whether we run under CI is the is-in-ci package's verdict, the one Ink itself goes by: under CI
 * Ink holds every frame back until it exits, so a live view would show nothing, and CI logs want
 * plain text. The verdict is a parameter so that a test can give either.
 */

/** Whether a developer is watching `stream` in an interactive terminal: a TTY outside CI. */
export function interactiveTerminal(stream: { isTTY?: boolean } = process.stdout, inCi: boolean = isInCi): boolean {
  return stream.isTTY === true && !inCi;
}

/** Whether to colour what goes to `stream`: an interactive terminal, NO_COLOR unset and TERM not dumb. */
export function colourEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env, inCi: boolean = isInCi): boolean {
  return interactiveTerminal(stream, inCi) && (env.NO_COLOR === undefined || env.NO_COLOR === "") && env.TERM !== "dumb";
}
