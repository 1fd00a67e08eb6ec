import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { defer, useCli, usePaysimCli, useTempDir } from "../helpers/disposables.js";

// Whatever reaches paysim from outside (a request's path, a config file, a receiver, an argument)
// reaches the developer's terminal only as visible text: the real binary, over real HTTP.

/**
 * The bytes of `text` a terminal would act on: C0 but the line feed that ends each line, DEL, and
 * (as UTF-8) C1 and the bidirectional marks, embeddings, overrides and isolates.
 */
function rawControls(text: string): string[] {
  const found: string[] = [];
  for (const byte of Buffer.from(text, "utf8")) if ((byte < 0x20 && byte !== 0x0a) || byte === 0x7f) found.push(`0x${byte.toString(16)}`);
  for (const char of text.match(/[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g) ?? [])
    found.push(`U+${char.charCodeAt(0).toString(16)}`);
  return found;
}

/** Paths any web page can make a browser request (an <img>), with what each would do to a terminal. */
const HOSTILE_PATHS: readonly { sent: string; decoded: string; shown: string }[] = [
  { sent: "/v1/%1B]0;PWNED%07", decoded: "/v1/\u001b]0;PWNED\u0007", shown: "/v1/\\u001b]0;PWNED\\u0007" },
  { sent: "/v1/%1B[2J%1B[H", decoded: "/v1/\u001b[2J\u001b[H", shown: "/v1/\\u001b[2J\\u001b[H" },
  {
    sent: "/v1/%1B]8;;http://evil.example/%1B%5Cclick%1B]8;;%1B%5C",
    decoded: "/v1/\u001b]8;;http://evil.example/\u001b\\click\u001b]8;;\u001b\\",
    shown: "/v1/\\u001b]8;;http://evil.example/\\u001b\\click\\u001b]8;;\\u001b\\",
  },
  { sent: "/v1/%1B]52;c;UFdORUQ=%07", decoded: "/v1/\u001b]52;c;UFdORUQ=\u0007", shown: "/v1/\\u001b]52;c;UFdORUQ=\\u0007" },
  { sent: "/v1/x%0D%0AGET%20/v1/forged%20200%201.0ms", decoded: "/v1/x\r\nGET /v1/forged 200 1.0ms", shown: "/v1/x\\u000d\\u000aGET /v1/forged 200 1.0ms" },
  { sent: "/v1/%C2%9B2J%7F%09", decoded: "/v1/\u009b2J\u007f\t", shown: "/v1/\\u009b2J\\u007f\\u0009" },
  {
    sent: "/v1/invoice%E2%80%AEfdp.exe%E2%81%A6x%E2%80%8F",
    decoded: "/v1/invoice\u202efdp.exe\u2066x\u200f",
    shown: "/v1/invoice\\u202efdp.exe\\u2066x\\u200f",
  },
];

async function sendHostileRequests(url: string): Promise<void> {
  // No key: the 401 is logged all the same.
  for (const { sent } of HOSTILE_PATHS) expect((await fetch(`${url}${sent}`)).status).toBe(401);
}

describe("paysim start --no-ui, a request path with controls in it", () => {
  it("logs each path with its controls as visible escapes, no raw control byte on stdout and no forged line", async () => {
    const { cli, url } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir() });
    await sendHostileRequests(url);
    await cli.waitFor(/^GET \/v1\/invoice.* 401 /m);
    const { stdout } = await cli.stop("SIGTERM");

    expect(rawControls(stdout)).toEqual([]);
    for (const { shown } of HOSTILE_PATHS)
      expect(stdout.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^GET ${escapeRegExp(shown)} 401 \\d+\\.\\dms$`)));
    expect(stdout).not.toMatch(/^GET \/v1\/forged/m);
  });

  it("masks a card number split by TABs or marks before escaping what splits it", async () => {
    const { cli, url } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir() });
    expect((await fetch(`${url}/v1/4242%094242%094242%094242`)).status).toBe(401);
    expect((await fetch(`${url}/v1/5555%E2%80%8E5555%E2%80%8E5555%E2%80%8E4444`)).status).toBe(401);
    await cli.waitFor(/^GET \/v1\/\*{4}\\u200e.* 401 /m);
    const { stdout } = await cli.stop("SIGTERM");
    expect(stdout).toMatch(/^GET \/v1\/\*{4}\\u0009\*{4}\\u0009\*{4}\\u00094242 401 /m);
    expect(stdout).toMatch(/^GET \/v1\/\*{4}\\u200e\*{4}\\u200e\*{4}\\u200e4444 401 /m);
    expect(stdout).not.toMatch(/4242\\u00094242|5555\\u200e5555/);
  });
});

describe("paysim start --json, a request path with controls in it", () => {
  it("stays JSON: each line parses back to the path as received, with C1 and bidirectional characters written as \\u escapes", async () => {
    const cli = useCli(["start", "--json", "--port", "0", "--db", ":memory:"], { cwd: useTempDir() });
    const [startedLine] = await cli.waitFor(/^\{"type":"started".*\}$/m);
    await sendHostileRequests(JSON.parse(startedLine).url);
    await cli.waitFor(/"path":"\/v1\/invoice/);
    const { stdout } = await cli.stop("SIGTERM");

    expect(rawControls(stdout)).toEqual([]);
    const paths = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; path?: string })
      .filter((line) => line.type === "request")
      .map((line) => line.path);
    expect(paths).toEqual(HOSTILE_PATHS.map((path) => path.decoded));
    expect(stdout).toContain(String.raw`"path":"/v1/\u009b2J\u007f\t"`);
    expect(stdout).toContain(String.raw`"path":"/v1/invoice\u202efdp.exe\u2066x\u200f"`);
  });
});

describe("the banner, a company name with controls in it", () => {
  it("prints the name from a config file escaped", async () => {
    const dir = useTempDir();
    const config = join(dir, "paysim.json");
    writeFileSync(config, JSON.stringify({ companies: [{ name: "Acme\u001b]0;PWNED\u0007 \u202etxt.exe" }] }));
    const { cli } = await usePaysimCli(["--no-ui", "--db", ":memory:", "--config", config], { cwd: dir });
    const { stdout } = await cli.stop("SIGTERM");

    expect(rawControls(stdout)).toEqual([]);
    expect(stdout).toMatch(/^ {2}company {3}Acme\\u001b\]0;PWNED\\u0007 \\u202etxt\.exe \(EUR\) \[default\]$/m);
  });
});

describe("paysim check-receiver, a hostile receiver", () => {
  it("prints its verdicts and the URL with no raw control, whatever the receiver answers", async () => {
    // Answers every request with controls in its status line, a header and its body.
    const server: Server = createServer((socket) => {
      socket.once("data", () => {
        const body = "\u001b]0;PWNED\u0007\u001b[2J\r\nFAKE LINE";
        socket.end(
          `HTTP/1.1 200 \u001b]0;PWNED\u0007\r\nX-Evil: \u001b[2J\u009b31m\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    defer(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as { port: number };
    const url = `http://127.0.0.1:${port}/hooks\u001b]0;PWNED\u0007\u202e`;

    const result = await runCli(["check-receiver", url, "--secret", "whsec_terminal_escapes", "--only", "valid,wrong-secret", "--timeout", "2000"]);
    expect(rawControls(result.stdout)).toEqual([]);
    expect(rawControls(result.stderr)).toEqual([]);
    expect(result.stdout).toMatch(/ of 2 cases against http:\/\/127\.0\.0\.1:\d+\/hooks\\u001b\]0;PWNED\\u0007\\u202e \(limit 2000 ms/);
  });
});

describe("CLI errors that echo what they were given", () => {
  it("escapes an unknown option", async () => {
    const { code, stderr } = await runCli(["start", "--\u001b]0;PWNED\u0007"]);
    expect(code).toBe(1);
    expect(rawControls(stderr)).toEqual([]);
    expect(stderr).toContain(String.raw`unknown option --\u001b]0;PWNED\u0007`);
  });

  it("escapes an id the server says it cannot find", async () => {
    const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir() });
    const { code, stderr } = await runCli(["events", "show", "evt_\u001b]0;PWNED\u0007\r\nforged", "--url", url, "--key", key]);
    await cli.stop("SIGTERM");
    expect(code).toBe(1);
    expect(rawControls(stderr)).toEqual([]);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
