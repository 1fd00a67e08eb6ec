/**
 * What the terminal we write to can take: the one rule for the live view, the log lines and the
 * CLI's tables. Colour only on a terminal, not in CI, and only when NO_COLOR is not set
 * (https://no-color.org).
 */

/**
 * Whether we run under CI, by the same test Ink uses (the is-in-ci package): there Ink holds every
 * frame back until it exits, so a live view would show nothing, and CI logs want plain text.
 */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const set = (name: string) => env[name] !== undefined && env[name] !== "0" && env[name] !== "false";
  return set("CI") || set("CONTINUOUS_INTEGRATION");
}

/** Whether a developer is watching `stream` in an interactive terminal: a TTY outside CI. */
export function interactiveTerminal(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !inCi(env);
}

export function colourEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  return interactiveTerminal(stream, env) && (env.NO_COLOR === undefined || env.NO_COLOR === "") && env.TERM !== "dumb";
}
