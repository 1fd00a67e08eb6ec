import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { Database } from "../../src/store/sqlite-driver.js";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { defer, useCli, useReceiver, useTempDir } from "../helpers/disposables.js";

/** `paysim exec <options> -- node -e <script>`, run to completion in a folder of its own. */
function execNode(options: string[], script: string, env?: Record<string, string | undefined>) {
  return runCli(["exec", ...options, "--", process.execPath, "-e", script], { cwd: useTempDir("paysim-cli-exec-"), env });
}

/** A script that prints the PAYSIM_* variables it was given, as JSON. */
const PRINT_ENV = `console.log(JSON.stringify(Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("PAYSIM_")))))`;

/** An expression, in the command's script, that creates a payment intent on the paysim exec started. */
const CREATE_INTENT = `fetch(process.env.PAYSIM_URL + "/v1/payment_intents", { method: "POST", headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() }, body: JSON.stringify({ amount: 100, currency: "EUR" }) })`;

describe("paysim exec", () => {
  it("runs the command with PAYSIM_URL and PAYSIM_SECRET_KEY of a serving paysim, prints nothing of its own, and exits 0 with it", async () => {
    const script = `${PRINT_ENV}; fetch(process.env.PAYSIM_URL + "/health").then((r) => console.log("health", r.status))`;
    const result = await execNode([], script);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [envLine, healthLine, ...rest] = result.stdout.trim().split("\n");
    const env = JSON.parse(envLine!) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(["PAYSIM_SECRET_KEY", "PAYSIM_URL"]);
    expect(env.PAYSIM_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.PAYSIM_SECRET_KEY).toMatch(/^sk_test_\S+$/);
    expect(healthLine).toBe("health 200");
    expect(rest).toEqual([]);
  });

  it("adds PAYSIM_WEBHOOK_SECRET, the --forward-to endpoints' signing secret, and uses the options it is given", async () => {
    const result = await execNode(
      ["--forward-to", "http://127.0.0.1:9/hooks", "--webhook-secret", "whsec_exec_0001", "--secret-key", "sk_test_exec_0001"],
      PRINT_ENV,
    );
    expect(result.code).toBe(0);
    const env = JSON.parse(result.stdout) as Record<string, string>;
    expect(env.PAYSIM_WEBHOOK_SECRET).toBe("whsec_exec_0001");
    expect(env.PAYSIM_SECRET_KEY).toBe("sk_test_exec_0001");
  });

  it("exits with the command's exit status", async () => {
    const result = await execNode([], "process.exit(3)");
    expect(result.code).toBe(3);
  });

  it("exits 128 + n when signal n ended the command: 130 for SIGINT", async () => {
    const result = await execNode([], `process.kill(process.pid, "SIGINT")`);
    expect(result.code).toBe(130);
  });

  it("passes SIGINT sent to exec on to the command: 130 when that ends it", async () => {
    const exec = useCli(["exec", "--", process.execPath, "-e", `console.log("ready"); setInterval(() => {}, 1000)`], { cwd: useTempDir("paysim-cli-exec-") });
    await exec.waitFor(/ready/);
    const result = await exec.stop("SIGINT");
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
  });

  it.each([
    ["SIGINT", 0],
    ["SIGTERM", 7],
  ] as const)("passes %s on to a command that handles it, and exits with the status the command chose", async (signal, status) => {
    const script = `process.on("${signal}", () => { console.log("got ${signal}"); process.exit(${status}); }); console.log("ready"); setInterval(() => {}, 1000)`;
    const exec = useCli(["exec", "--", process.execPath, "-e", script], { cwd: useTempDir("paysim-cli-exec-") });
    await exec.waitFor(/ready/);
    const result = await exec.stop(signal);
    expect(result.stdout).toContain(`got ${signal}`);
    expect(result.code).toBe(status);
  });

  it.each(["SIGHUP", "SIGQUIT"] as const)(
    "passes %s on (a closed terminal sends SIGHUP, Ctrl-\\ SIGQUIT), waits for the command, writes the export and exits with the command's status",
    async (signal) => {
      const dir = useTempDir("paysim-cli-exec-");
      const snapshot = join(dir, "after.db");
      const marker = join(dir, "command-finished");
      // The command creates a payment, then on the signal finishes its work (a file) and exits 5; it
      // ends itself after a while should exec never pass the signal on.
      const script = `process.on("${signal}", () => { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "done"); process.exit(5); });
        setTimeout(() => process.exit(9), 30000);
        ${CREATE_INTENT}.then((r) => r.json()).then((intent) => console.log("created", intent.id));`;
      const exec = useCli(["exec", "--export-on-exit", snapshot, "--", process.execPath, "-e", script], { cwd: dir });
      const [, intentId] = await exec.waitFor(/created (pi_\S+)/);
      const result = await exec.stop(signal);
      expect(result.signal).toBeNull();
      expect(result.code).toBe(5);
      expect(existsSync(marker)).toBe(true);
      const exported = new Database(snapshot, { readonly: true, fileMustExist: true });
      defer(() => exported.close());
      expect(exported.prepare("SELECT count(*) FROM payment_intents WHERE id = ?").pluck().get(intentId)).toBe(1);
    },
  );

  it("lets a paysim command inside the command find this server through the variables", async () => {
    const cwd = useTempDir("paysim-cli-exec-");
    const result = await runCli(["exec", "--verbose", "--", process.execPath, PAYSIM_BIN, "clock", "show"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^now +\d{4}-\d\d-\d\dT/m);
    // The request reached the paysim exec started: its own log line says so.
    expect(result.stderr).toMatch(/^GET \/v1\/sandbox\/clock 200 /m);
  });

  it("stops paysim when the command ends", async () => {
    const result = await execNode([], "console.log(process.env.PAYSIM_URL)");
    expect(result.code).toBe(0);
    await expect(fetch(`${result.stdout.trim()}/health`)).rejects.toThrow();
  });

  it("stops paysim and exits when the command ends, even with a webhook delivery still waiting on its receiver", async () => {
    const receiver = await useReceiver("hang");
    const script = `${CREATE_INTENT}.then((r) => console.log("created", r.status)); process.on("SIGINT", () => process.exit(0)); setInterval(() => {}, 1000)`;
    const exec = useCli(["exec", "--forward-to", receiver.url, "--", process.execPath, "-e", script], { cwd: useTempDir("paysim-cli-exec-") });
    await exec.waitFor(/created 201/);
    const [delivery] = await receiver.waitForRequests(1);
    expect(JSON.parse(delivery!.body.toString("utf8")).type).toBe("payment_intent.created");
    expect(receiver.hangingCount()).toBe(1);
    const result = await exec.stop("SIGINT");
    expect(result.code).toBe(0);
  });

  it("prints paysim's banner and log lines on stderr with --verbose, never on stdout", async () => {
    const script = `${CREATE_INTENT}.then((r) => console.log("created", r.status))`;
    const result = await execNode(["--verbose"], script);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("created 201\n");
    expect(result.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(result.stderr).toMatch(/^POST \/v1\/payment_intents 201 /m);
    expect(result.stderr).toMatch(/^event evt_\S+ payment_intent\.created pi_/m);
  });

  describe("when paysim cannot start, it does not run the command and exits 1 with the reason", () => {
    /** A command that would leave a file behind if it ran. */
    function wouldCreate(dir: string): { marker: string; command: string[] } {
      const marker = join(dir, "command-ran");
      return { marker, command: [process.execPath, "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`] };
    }

    it("a bad --config", async () => {
      const dir = useTempDir("paysim-cli-exec-");
      const config = join(dir, "paysim.config.json");
      writeFileSync(config, JSON.stringify({ companies: [{ name: "Acme", currency: "euro" }] }));
      const { marker, command } = wouldCreate(dir);
      const result = await runCli(["exec", "--config", config, "--", ...command], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(config);
      expect(result.stderr).toContain("companies[0].currency");
      expect(result.stderr).toContain("the command was not run");
      expect(existsSync(marker)).toBe(false);
    });

    it("a port in use", async () => {
      const dir = useTempDir("paysim-cli-exec-");
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const port = (server.address() as { port: number }).port;
      const { marker, command } = wouldCreate(dir);
      const result = await runCli(["exec", "--port", String(port), "--", ...command], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(String(port));
      expect(existsSync(marker)).toBe(false);
    });

    it("a --db that is not a paysim database", async () => {
      const dir = useTempDir("paysim-cli-exec-");
      const notADatabase = join(dir, "folder.db");
      mkdirSync(notADatabase);
      const { marker, command } = wouldCreate(dir);
      const result = await runCli(["exec", "--db", notADatabase, "--", ...command], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(notADatabase);
      expect(existsSync(marker)).toBe(false);
    });

    it("a bad --secret-key", async () => {
      const dir = useTempDir("paysim-cli-exec-");
      const { marker, command } = wouldCreate(dir);
      const result = await runCli(["exec", "--secret-key", "nope", "--", ...command], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("--secret-key");
      expect(existsSync(marker)).toBe(false);
    });
  });

  describe("--import and --export-on-exit, as for paysim start", () => {
    /** A script that creates a payment intent and prints its id. */
    const CREATE_AND_PRINT = `${CREATE_INTENT}.then((r) => r.json()).then((intent) => console.log(intent.id))`;

    it("writes the snapshot after the command ends (mode 0600), and a later exec --import starts from it", async () => {
      const dir = useTempDir("paysim-cli-exec-snapshot-");
      const snapshot = join(dir, "after.db");
      const first = await runCli(["exec", "--export-on-exit", snapshot, "--", process.execPath, "-e", CREATE_AND_PRINT], { cwd: dir });
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      const intentId = first.stdout.trim();
      expect(intentId).toMatch(/^pi_/);
      expect(statSync(snapshot).mode & 0o777).toBe(0o600);

      const read = `fetch(process.env.PAYSIM_URL + "/v1/payment_intents/${intentId}", { headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY } }).then((r) => console.log(r.status))`;
      const snapshotDb = new Database(snapshot, { readonly: true });
      const stored = snapshotDb.prepare("SELECT COUNT(*) AS n FROM payment_intents WHERE id = ?").get(intentId) as { n: number };
      snapshotDb.close();
      expect(stored.n).toBe(1);
      // The imported company keeps its key, so PAYSIM_SECRET_KEY of the second run reads the intent.
      const second = await runCli(["exec", "--import", snapshot, "--", process.execPath, "-e", read], { cwd: dir });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe("200\n");
    });

    it("writes the snapshot also when the command failed, and keeps the command's status", async () => {
      const dir = useTempDir("paysim-cli-exec-snapshot-");
      const snapshot = join(dir, "after.db");
      const result = await runCli(["exec", "--export-on-exit", snapshot, "--", process.execPath, "-e", "process.exit(3)"], { cwd: dir });
      expect(result.code).toBe(3);
      expect(existsSync(snapshot)).toBe(true);
    });

    it("a snapshot that cannot be written is reported naming it, leaves nothing behind, and turns a passing run into exit 1", async () => {
      const dir = useTempDir("paysim-cli-exec-snapshot-");
      const unwritable = join(dir, "no-such-folder", "after.db");
      const result = await runCli(["exec", "--export-on-exit", unwritable, "--", process.execPath, "-e", "console.log('ran')"], { cwd: dir });
      expect(result.stdout).toBe("ran\n");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`paysim: Cannot write the snapshot ${unwritable}`);
      expect(readdirSync(dir).filter((name) => name !== ".paysim")).toEqual([]);
    });

    it("an --import that is not a paysim snapshot: the command is not run, exit 1 naming the file", async () => {
      const dir = useTempDir("paysim-cli-exec-snapshot-");
      const bogus = join(dir, "notes.txt");
      writeFileSync(bogus, "not a database ".repeat(10));
      const marker = join(dir, "ran");
      const result = await runCli(
        ["exec", "--import", bogus, "--", process.execPath, "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "")`],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The file ${bogus} is not a SQLite database, so it is not a paysim snapshot`);
      expect(result.stderr).toContain("the command was not run");
      expect(existsSync(marker)).toBe(false);
    });
  });

  it("exits 127 and says so when the command cannot be run", async () => {
    const result = await runCli(["exec", "--", "paysim-no-such-command"], { cwd: useTempDir("paysim-cli-exec-") });
    expect(result.code).toBe(127);
    expect(result.stderr).toContain("paysim-no-such-command");
  });

  it("--help describes exec's own options, not start's (no key kept between runs, no earlier --forward-to)", async () => {
    const result = await runCli(["exec", "--help"], { cwd: useTempDir("paysim-cli-exec-") });
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, " ");
    expect(help).not.toContain("generated on first start");
    expect(help).not.toContain("earlier --forward-to URLs");
    expect(help).toContain(
      "--secret-key <key> the default company's key (sk_test_…), given to the command as PAYSIM_SECRET_KEY; without it (or a key in --config) each run makes a new one",
    );
    expect(help).toContain("--forward-to <url> send the run's events to this URL (repeatable); the command gets their signing secret as PAYSIM_WEBHOOK_SECRET");
    expect(help).toContain("SIGINT, SIGTERM, SIGHUP (a closed terminal), SIGQUIT, SIGUSR2 and SIGALRM are passed to the command");
    const start = (await runCli(["start", "--help"], { cwd: useTempDir("paysim-cli-exec-") })).stdout.replace(/\s+/g, " ");
    expect(start).toContain("generated on first start");
  });

  it("refuses to run without a command", async () => {
    const result = await runCli(["exec"], { cwd: useTempDir("paysim-cli-exec-") });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("paysim exec: the <command> argument is missing.\nsee paysim exec --help\n");
  });
});
