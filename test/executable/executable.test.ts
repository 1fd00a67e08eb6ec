// `npm run build:executable` and the executable it makes, run with no Node.js on PATH: a smoke run
// of what a user of the executable does first (docs/install.md). The build takes Node.js 24's own
// binary; on Node.js 22 the build refuses in one line, which is what that lane checks.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "../../src/index.js";
import { pressDashboardLink } from "../helpers/dashboard-link.js";
import { defer, suiteScope, useReceiver, useTempDir, useTmux } from "../helpers/disposables.js";
import type { ReceivedRequest, Receiver } from "../helpers/receiver.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILD = join(ROOT, "scripts", "build-executable.mjs");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
const PLATFORM = `${process.platform}-${process.arch}`;
const KEY = "sk_test_executable_0001";
const WEBHOOK_SECRET = "whsec_executable_smoke";

/** Debian's Chromium: CI's .ci/run installs it; a laptop without it skips the smoke run, saying so. */
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`test/executable/executable.test.ts: the smoke run is SKIPPED — no Chromium at ${CHROMIUM}.`);

function runBuild(args: readonly string[], extraNodeArgs: readonly string[] = []) {
  return spawnSync(process.execPath, [...extraNodeArgs, BUILD, ...args], { cwd: ROOT, encoding: "utf8" });
}

/**
 * A PATH with only the programs named, linked from /usr/bin or /bin: no Node.js and no npm, even
 * where the machine has them in /usr/bin (this one's own Node.js is there).
 */
function pathWithout(dir: string, programs: readonly string[]): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const program of programs) symlinkSync(existsSync(`/usr/bin/${program}`) ? `/usr/bin/${program}` : `/bin/${program}`, join(bin, program));
  return bin;
}

if (NODE_MAJOR < 24) {
  describe(`npm run build:executable on Node.js ${NODE_MAJOR}`, () => {
    it("refuses in one line naming the Node.js it needs", () => {
      const result = runBuild(["--out", useTempDir("paysim-executable-")]);
      expect(result.stderr).toBe(`build:executable: needs Node.js 24 or newer, whose binary becomes the executable; this is Node.js ${process.version}.\n`);
      expect(result.status).toBe(1);
    });
  });
} else {
  describe("npm run build:executable", () => {
    it("refuses in one line, naming the platform, where better-sqlite3 has no binding for it", () => {
      // The build picks the binding better-sqlite3 would load here; on a platform it has none for, it stops.
      const elsewhere = "data:text/javascript,Object.defineProperty(process, 'arch', { value: 'riscv64' });";
      const result = runBuild(["--out", useTempDir("paysim-executable-")], ["--import", elsewhere]);
      expect(result.stderr).toBe(
        `build:executable: better-sqlite3 has no SQLite binding for ${process.platform}-riscv64 (none prebuilt, none compiled): paysim cannot be one executable here.\n`,
      );
      expect(result.status).toBe(1);
    });
  });

  describe.skipIf(!hasChromium)("the single executable, with no Node.js on PATH", () => {
    const suite = suiteScope();
    let dir: string;
    let executable: string;
    let env: Record<string, string>;

    beforeAll(() => {
      dir = useTempDir("paysim-executable-", suite);
      const built = runBuild(["--out", join(dir, "out")]);
      expect(built.stderr).toBe("");
      expect(built.status).toBe(0);
      executable = join(dir, "out", "paysim");
      // A cache folder of its own, so that the first run writes the assets there.
      env = { PATH: pathWithout(dir, ["sh", "env"]), HOME: dir, XDG_CACHE_HOME: join(dir, "cache"), NO_COLOR: "1" };
    }, 300_000);

    function run(args: readonly string[], cwd = dir) {
      return spawnSync(executable, args, { cwd, env, encoding: "utf8" });
    }

    it("has no Node.js on its PATH", () => {
      expect(run(["exec", "--", "sh", "-c", "command -v node npm || echo none"]).stdout).toContain("none");
    });

    it("says its version and platform", () => {
      const result = run(["--version"]);
      expect(result.stdout).toBe(`paysim ${VERSION} (${PLATFORM}, single executable)\n`);
      expect(result.status).toBe(0);
    });

    it("refuses in one line, naming both platforms, on one it has no SQLite binding for, before it writes anything", () => {
      // The executable honours NODE_OPTIONS, as Node.js does: a preload makes this machine look like another.
      const preload = join(dir, "elsewhere.cjs");
      writeFileSync(preload, "Object.defineProperty(process, 'arch', { value: 'riscv64' });\n");
      const cache = join(dir, "cache-elsewhere");
      const result = spawnSync(executable, ["start"], {
        cwd: dir,
        env: { ...env, XDG_CACHE_HOME: cache, NODE_OPTIONS: `--require ${preload}` },
        encoding: "utf8",
      });
      expect(result.stderr).toBe(
        `paysim: this executable has no SQLite binding for ${process.platform}-riscv64 (it was built for ${PLATFORM}); build one on ${process.platform}-riscv64 with npm run build:executable.\n`,
      );
      expect(result.status).toBe(1);
      expect(existsSync(cache)).toBe(false);
    });

    it("refuses in one line, naming the folder, when it cannot write its binding to the cache", () => {
      const inTheWay = join(dir, "not-a-folder");
      writeFileSync(inTheWay, "");
      const result = spawnSync(executable, ["start"], { cwd: dir, env: { ...env, XDG_CACHE_HOME: inTheWay }, encoding: "utf8" });
      expect(result.stderr).toMatch(
        new RegExp(
          `^paysim: cannot write its SQLite binding and data files to ${inTheWay}/paysim/executable/[0-9a-f]{64} \\(ENOTDIR\\); set XDG_CACHE_HOME to a folder it can write\\.\n$`,
        ),
      );
      expect(result.status).toBe(1);
    });

    it("starts, takes a payment on the checkout page in Chromium, and delivers its webhook signed", async () => {
      const receiver = await useReceiver(200);
      const db = join(dir, "smoke", "paysim.db");
      mkdirSync(join(dir, "smoke"));
      const server = spawn(
        executable,
        ["start", "--no-ui", "--port", "0", "--db", db, "--secret-key", KEY, "--forward-to", receiver.url, "--webhook-secret", WEBHOOK_SECRET],
        {
          cwd: join(dir, "smoke"),
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      defer(() => stopped(server));
      const url = await listeningUrl(server);

      const created = await fetch(`${url}/v1/payment_intents`, {
        method: "POST",
        headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json", "Idempotency-Key": "smoke-1" },
        body: JSON.stringify({ amount: 4999, description: "Order 1042" }),
      });
      expect(created.status).toBe(201);
      const intent = (await created.json()) as { id: string; checkout_url: string };

      const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
      defer(() => browser.close());
      const page = await browser.newPage({ javaScriptEnabled: false });
      expect((await page.goto(intent.checkout_url))?.status()).toBe(200);
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiry date").fill("12/34");
      await page.getByLabel("Security code").fill("123");
      await page.getByRole("button", { name: "Pay €49.99" }).click();
      await page.waitForURL(intent.checkout_url);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Payment successful");

      const captured = await delivery(receiver, "payment_intent.captured");
      expect(JSON.parse(captured.body.toString("utf8")).data.id).toBe(intent.id);
      expect(verifySignature(captured.body, String(captured.headers["service-signature"]), WEBHOOK_SECRET)).toBe(true);

      server.kill("SIGTERM");
      expect(await exitCode(server)).toBe(0);
    });

    it("shows the live view in a terminal, and its dashboard link signs in to the dashboard", async () => {
      const command = ["env", "-i", ...Object.entries({ ...env, TERM: "xterm-256color" }).map(([name, value]) => `${name}=${value}`)];
      command.push(executable, "start", "--port", "0", "--db", ":memory:", "--secret-key", KEY);
      const terminal = await useTmux(command, { columns: 140, rows: 40, cwd: dir });
      const screen = await terminal.waitForScreen((text) => text.includes("q to quit") && /dashboard\s+http/.test(text), "the live view's status line");
      const link = /dashboard\s+(http:\/\/\S+)/.exec(screen)![1]!;
      const signedIn = await pressDashboardLink(link);
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
      const dashboard = await fetch(new URL(signedIn.headers.get("location")!, link), { headers: { cookie } });
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("<html");
      await terminal.sendKeys("q");
      expect(await terminal.waitForExit()).toBe(0);
    });

    it("checks a receiver with check-receiver", async () => {
      const receiver = await useReceiver(200);
      // Not spawnSync: the receiver answers from this process, whose event loop must keep running.
      const result = await runAsync(executable, ["check-receiver", receiver.url, "--secret", WEBHOOK_SECRET], { cwd: dir, env });
      // A receiver that accepts every delivery, badly signed ones too, fails the check: said, not crashed.
      expect(result.stdout + result.stderr).toContain("signature");
      expect(receiver.requests.length).toBeGreaterThan(0);
      expect(result.status).toBe(1);
    });

    it("wrote its SQLite binding once, to a folder of the user's cache named by its hash", () => {
      const [hash, ...others] = readdirSync(join(dir, "cache", "paysim", "executable"));
      expect(others).toEqual([]);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      const folder = join(dir, "cache", "paysim", "executable", hash!);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(join(folder, "better_sqlite3.node")).isFile()).toBe(true);
    });

    it("runs a command under exec and writes the run's report, with no findings", () => {
      const report = join(dir, "report.json");
      const result = run(["exec", "--report", report, "--fail-on", "errors", "--", executable, "trigger", "payment_intent.captured"]);
      expect(result.stderr).toContain("findings: 0 errors, 0 warnings");
      expect(result.status).toBe(0);
      const written = JSON.parse(readFileSync(report, "utf8")) as { coverage: { operations: Record<string, { calls: number }> }; findings: unknown[] };
      expect(written.coverage.operations.authorizePaymentIntent?.calls).toBe(1);
      expect(written.findings).toEqual([]);
    });
  });
}

/** A child run to its end without blocking this process; its output and status, as spawnSync gives them. */
function runAsync(file: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }) {
  return new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
    const child = spawn(file, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (status) => resolve({ stdout, stderr, status }));
  });
}

/** The first delivery of an event of `type`, once it has arrived. */
async function delivery(receiver: Receiver, type: string): Promise<ReceivedRequest> {
  for (;;) {
    const found = receiver.requests.find((request) => JSON.parse(request.body.toString("utf8")).type === type);
    if (found) return found;
    await receiver.nextChange();
  }
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
    child.on("exit", (code) => reject(new Error(`paysim start exited ${code} before listening: ${out}${err}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await exitCode(child);
}
