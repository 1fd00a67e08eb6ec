import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { PAYSIM_BIN, cliEnv, runCli, startCli } from "../helpers/cli.js";
import { usePaysim, usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";

/** A key with what a shell would expand or end a quote at: `paysim start` takes it (printable ASCII, no space). */
const AWKWARD_KEY = "sk_test_it's_$HOME_`x`_\\n";

/** Runs `script` in sh in `cwd`, with `paysim` the real binary; resolves with its stdout. */
function sh(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("sh", ["-c", script], { cwd, env: cliEnv({ PAYSIM: `${process.execPath} ${PAYSIM_BIN}` }), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("paysim env", () => {
  it("prints the running paysim's URL, key and shared signing secret, found as the other commands find it", async () => {
    const dir = useTempDir();
    const { url, key } = await usePaysimCli(["--db", ":memory:", "--no-ui", "--secret-key", AWKWARD_KEY, "--forward-to", "http://127.0.0.1:9/hooks"], {
      cwd: dir,
    });
    const run = (...args: string[]) => runCli(["env", ...args], { cwd: dir });

    const json = await run("--json");
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: "" });
    const object = JSON.parse(json.stdout);
    expect(object).toEqual({
      PAYSIM_URL: url,
      PAYSIM_SECRET_KEY: AWKWARD_KEY,
      PAYSIM_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/),
      webhook_endpoints: [{ id: expect.stringMatching(/^we_/), url: "http://127.0.0.1:9/hooks", secret: object.PAYSIM_WEBHOOK_SECRET }],
    });
    expect(key).toBe(AWKWARD_KEY);

    const plain = await run();
    expect(plain.stdout).toBe(`PAYSIM_URL=${url}\nPAYSIM_SECRET_KEY=${AWKWARD_KEY}\nPAYSIM_WEBHOOK_SECRET=${object.PAYSIM_WEBHOOK_SECRET}\n`);

    // --shell: eval'd by sh, every value arrives exactly, nothing in it expanded.
    const evaluated = await sh(`eval "$($PAYSIM env --shell)" && printf '%s\\n' "$PAYSIM_URL" "$PAYSIM_SECRET_KEY" "$PAYSIM_WEBHOOK_SECRET"`, dir);
    expect(evaluated).toEqual({ code: 0, stdout: `${url}\n${AWKWARD_KEY}\n${object.PAYSIM_WEBHOOK_SECRET}\n`, stderr: "" });
  });

  it("prints a key and a signing secret with 13 or more digits in a row exactly as given, as start --json's started line does", async () => {
    const dir = useTempDir();
    const key = "sk_test_ci_1732212345678901234";
    const secret = "whsec_ci_7302212345678901234";
    const cli = startCli(
      ["start", "--port", "0", "--db", ":memory:", "--json", "--secret-key", key, "--forward-to", "http://127.0.0.1:9/hooks", "--webhook-secret", secret],
      {
        cwd: dir,
      },
    );
    try {
      const [startedLine] = await cli.waitFor(/^\{"type":"started".*$/m);
      const started = JSON.parse(startedLine);
      expect(started.companies).toMatchObject([{ secret_key: key, webhook_endpoints: [{ url: "http://127.0.0.1:9/hooks", secret }] }]);
      // The key printed is the key that works.
      expect((await callApi(started.url, key, "GET", "/v1/payment_intents")).status).toBe(200);

      const run = (...args: string[]) => runCli(["env", ...args], { cwd: dir });
      expect((await run()).stdout).toBe(`PAYSIM_URL=${started.url}\nPAYSIM_SECRET_KEY=${key}\nPAYSIM_WEBHOOK_SECRET=${secret}\n`);
      expect((await run("--shell")).stdout).toBe(
        `export PAYSIM_URL='${started.url}'\nexport PAYSIM_SECRET_KEY='${key}'\nexport PAYSIM_WEBHOOK_SECRET='${secret}'\n`,
      );
      expect(JSON.parse((await run("--json")).stdout)).toMatchObject({
        PAYSIM_SECRET_KEY: key,
        PAYSIM_WEBHOOK_SECRET: secret,
        webhook_endpoints: [{ secret }],
      });
      // Handed back to its owner only: a request that carried the key logs none of it.
      expect(
        cli
          .stdout()
          .split("\n")
          .filter((line) => line.includes("1732212345678901")),
      ).toEqual([startedLine]);
    } finally {
      await cli.stop("SIGKILL");
    }
  });

  it("leaves PAYSIM_WEBHOOK_SECRET out when there are no endpoints or their secrets differ; --json lists each", async () => {
    const paysim = await usePaysim();
    const server = ["--url", paysim.url, "--key", paysim.secretKey];
    expect((await runCli(["env", ...server])).stdout).toBe(`PAYSIM_URL=${paysim.url}\nPAYSIM_SECRET_KEY=${paysim.secretKey}\n`);
    for (const path of ["/a", "/b"]) await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: `http://127.0.0.1:9${path}` } });
    expect((await runCli(["env", "--shell", ...server])).stdout).toBe(`export PAYSIM_URL='${paysim.url}'\nexport PAYSIM_SECRET_KEY='${paysim.secretKey}'\n`);
    const listed = JSON.parse((await runCli(["env", "--json", ...server])).stdout);
    expect(listed.PAYSIM_WEBHOOK_SECRET).toBeUndefined();
    expect(listed.webhook_endpoints.map((endpoint: any) => endpoint.url)).toEqual(["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]);
  });

  it("says so, exit 2, when no paysim is known; exit 1 for --shell with --json", async () => {
    const dir = useTempDir();
    const none = await runCli(["env"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(/^paysim: no paysim server known/);
    const both = await runCli(["env", "--shell", "--json", "--url", "http://127.0.0.1:9", "--key", "sk_test_x"], { cwd: dir });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("--shell and --json print different formats");
  });

  it("refuses, in every form, a value from the server holding a line break or control character, printing none of it", async () => {
    const dir = useTempDir();
    // Not a paysim: a server whose endpoint's signing secret would add a line to $GITHUB_ENV.
    let secret = "whsec_a\nPAYSIM_URL=http://evil.example";
    const server = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ object: "list", data: [{ id: "we_1", object: "webhook_endpoint", url: "http://127.0.0.1:9/hooks", secret }], has_more: false }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const bad of ["whsec_a\nPAYSIM_URL=http://evil.example", "whsec_a\rb", "whsec_a\u2028b", "whsec_a\u0000b"]) {
        secret = bad;
        for (const form of [[], ["--shell"], ["--json"]]) {
          const result = await runCli(["env", ...form, "--url", url, "--key", "sk_test_x"], { cwd: dir });
          expect({ bad, form, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
            bad,
            form,
            code: 1,
            stdout: "",
            stderr: expect.stringMatching(/^paysim: The signing secret of webhook endpoint "we_1" holds a line break or control character[^\n]*\n$/),
          });
        }
      }
      secret = "whsec_fine";
      const fine = await runCli(["env", "--url", url, "--key", "sk_test_x"], { cwd: dir });
      expect(fine.stdout).toBe(`PAYSIM_URL=${url}\nPAYSIM_SECRET_KEY=sk_test_x\nPAYSIM_WEBHOOK_SECRET=whsec_fine\n`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
