import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";

describe("paysim start with a config whose first company declares no key", () => {
  it("prints the same generated key on every later start", async () => {
    const dir = useTempDir();
    const config = join(dir, "paysim.json");
    writeFileSync(config, JSON.stringify({ companies: [{ name: "Acme" }] }));
    const db = join(dir, "data", "paysim.db");

    const first = await usePaysimCli(["--port", "0", "--db", db, "--config", config]);
    await first.cli.stop("SIGTERM");
    const second = await usePaysimCli(["--port", "0", "--db", db, "--config", config]);
    expect(second.key).toBe(first.key);
    const me = await fetch(`${second.url}/v1/payment_intents`, { headers: { Authorization: `Bearer ${second.key}` } });
    expect(me.status).toBe(200);
  });
});

describe("paysim start with a config whose keys and secrets hold 13 or more digits in a row", () => {
  it("prints them in its banner exactly as the file gives them, and the key printed works", async () => {
    const dir = useTempDir();
    const config = join(dir, "paysim.json");
    const key = "sk_test_ci_1732212345678901234";
    const secret = "whsec_ci_7302212345678901234";
    writeFileSync(
      config,
      JSON.stringify({ companies: [{ name: "Acme 4242424242424242", secret_key: key, webhook_endpoints: [{ url: "http://127.0.0.1:9/hooks", secret }] }] }),
    );

    const started = await usePaysimCli(["--db", ":memory:", "--no-ui", "--config", config], { cwd: dir });
    expect(started.key).toBe(key);
    expect(started.cli.stdout()).toContain(`  webhook   http://127.0.0.1:9/hooks  signing secret ${secret}\n`);
    // The rest of the banner is masked as ever.
    expect(started.cli.stdout()).toContain("  company   Acme ************4242 (EUR) [default]\n");
    expect((await fetch(`${started.url}/v1/payment_intents`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});
