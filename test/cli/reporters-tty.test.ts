import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { cliEnv, PAYSIM_BIN } from "../helpers/cli.js";
import { defer, useTempDir } from "../helpers/disposables.js";
import { callApi, createIntent, clientFor } from "../helpers/paysim.js";

/**
 * `paysim start` on a real pseudo-terminal (util-linux `script`), 120 × 40, typed into through `script`'s stdin.
 * A developer's terminal by default: the CI variables of the machine running the tests are removed.
 */
function startInTerminal(args: string[], env: Record<string, string | undefined> = {}) {
  const dir = useTempDir("paysim-tty-");
  const command = `stty cols 120 rows 40; exec "${process.execPath}" "${PAYSIM_BIN}" start ${args.join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: dir,
    env: cliEnv({ TERM: "xterm-256color", CI: undefined, CONTINUOUS_INTEGRATION: undefined, ...env }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  defer(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let output = "";
  const raw = () => output;
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    screen: () => stripVTControlCharacters(output).replace(/\r/g, ""),
    raw,
    type: (keys: string) => child.stdin!.write(keys),
    exit,
    async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
      let match: RegExpMatchArray | null = null;
      // A guard against a hung child, not a timing assertion.
      await vi.waitFor(
        () => {
          match = stripVTControlCharacters(output).replace(/\r/g, "").match(pattern);
          if (!match) throw new Error(`not on screen yet: ${pattern}\n${stripVTControlCharacters(output)}`);
        },
        { timeout: 20_000, interval: 20 },
      );
      return match!;
    },
  };
}

describe("paysim start in a terminal", () => {
  it.each([
    ["q", "q"],
    ["Ctrl-C", "\u0003"],
  ])("shows the live view, with requests and events as they happen, and %s stops it with exit code 0", async (_name, key) => {
    const terminal = startInTerminal(["--port", "0", "--db", ":memory:"]);
    const [, url] = await terminal.waitFor(/listening on (http:\/\/\S+)/);
    const [, secretKey] = await terminal.waitFor(/^ {2}key {7}(sk_test_\S+)$/m);
    await terminal.waitFor(/· 0 in flight · q to quit/);

    const intent = await createIntent(clientFor(url!, secretKey!));
    await terminal.waitFor(new RegExp(`\\d\\d:\\d\\d:\\d\\d {2}payment_intent\\.created {5}${intent.id} {2}evt_\\w+`));
    await terminal.waitFor(/\d\d:\d\d:\d\d {2}POST \/v1\/payment_intents 201 \d+\.\dms/);
    // The live view, not the plain lines.
    expect(terminal.screen()).not.toMatch(/^event evt_/m);

    terminal.type(key);
    expect(await terminal.exit).toBe(0);
    expect(terminal.screen()).toContain("paysim stopped; pending deliveries are kept for the next start.");
    await expect(callApi(url!, secretKey!, "GET", "/health")).rejects.toThrow();
  });

  it.each([
    ["colours", {}, true],
    ["no colours with NO_COLOR", { NO_COLOR: "1" }, false],
  ])("uses %s", async (_name, env, coloured) => {
    const terminal = startInTerminal(["--port", "0", "--db", ":memory:"], { NO_COLOR: undefined, ...env });
    const [, url] = await terminal.waitFor(/listening on (http:\/\/\S+)/);
    const [, secretKey] = await terminal.waitFor(/^ {2}key {7}(sk_test_\S+)$/m);
    await callApi(url!, secretKey!, "GET", "/v1/payment_intents");
    await terminal.waitFor(/GET \/v1\/payment_intents 200/);
    // SGR sequences (colours, bold); Ink's cursor movements are other escapes.
    // eslint-disable-next-line no-control-regex
    expect(/\u001b\[\d+(;\d+)*m/.test(terminal.raw())).toBe(coloured);
    terminal.type("q");
    expect(await terminal.exit).toBe(0);
  });

  it("prints plain lines instead with --no-ui", async () => {
    const terminal = startInTerminal(["--port", "0", "--db", ":memory:", "--no-ui"]);
    const [, url] = await terminal.waitFor(/listening on (http:\/\/\S+)/);
    const [, key] = await terminal.waitFor(/^ {2}key {7}(sk_test_\S+)$/m);
    const intent = await createIntent(clientFor(url!, key!));
    await terminal.waitFor(new RegExp(`^event evt_\\w+ payment_intent\\.created ${intent.id}$`, "m"));
    await terminal.waitFor(/^POST \/v1\/payment_intents 201 \d+\.\dms$/m);
    expect(terminal.screen()).not.toContain("q to quit");
  });

  it("prints plain, uncoloured lines instead under CI, where Ink would hold its frames back", async () => {
    const terminal = startInTerminal(["--port", "0", "--db", ":memory:"], { CI: "true", NO_COLOR: undefined });
    const [, url] = await terminal.waitFor(/listening on (http:\/\/\S+)/);
    const [, key] = await terminal.waitFor(/^ {2}key {7}(sk_test_\S+)$/m);
    const intent = await createIntent(clientFor(url!, key!));
    await terminal.waitFor(new RegExp(`^event evt_\\w+ payment_intent\\.created ${intent.id}$`, "m"));
    await terminal.waitFor(/^POST \/v1\/payment_intents 201 \d+\.\dms$/m);
    expect(terminal.screen()).not.toContain("q to quit");
    // eslint-disable-next-line no-control-regex
    expect(/\u001b\[\d+(;\d+)*m/.test(terminal.raw())).toBe(false);
    terminal.type("\u0003");
    expect(await terminal.exit).toBe(0);
  });
});
