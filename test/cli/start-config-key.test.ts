import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startPaysimCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/paysim.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("paysim start with a config whose first company declares no key", () => {
  it("prints the same generated key on every later start", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const config = join(dir, "paysim.json");
    writeFileSync(config, JSON.stringify({ companies: [{ name: "Acme" }] }));
    const db = join(dir, "data", "paysim.db");

    const first = await startPaysimCli(["--port", "0", "--db", db, "--config", config]);
    await first.cli.stop("SIGTERM");
    const second = await startPaysimCli(["--port", "0", "--db", db, "--config", config]);
    try {
      expect(second.key).toBe(first.key);
      const me = await fetch(`${second.url}/v1/payment_intents`, { headers: { Authorization: `Bearer ${second.key}` } });
      expect(me.status).toBe(200);
    } finally {
      await second.cli.stop("SIGTERM");
    }
  });
});
