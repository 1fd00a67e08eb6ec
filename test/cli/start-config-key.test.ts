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
