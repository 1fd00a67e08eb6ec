// docs/api.md's "The OpenAPI document" typed client, run as written (test/docs/examples.test.ts checks
// that the page shows the client unchanged): the page's own openapi-typescript command generates the
// types from a running paysim, TypeScript checks the client against them, and Node runs it.
import { execFile } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readBlocks, rewriteCommand } from "../docs/markdown-examples.js";
import { usePaysim, useTempDir } from "../helpers/disposables.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The page's command, as the page shows it. */
const COMMAND = "npx openapi-typescript http://127.0.0.1:7420/v1/openapi.json -o paysim.d.ts";

/** The page's client, as the page shows it. */
const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./paysim.js";

const paysim = createClient<paths>({
  baseUrl: process.env.PAYSIM_URL,
  headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY },
});

const { data, error } = await paysim.POST("/v1/payment_intents", {
  params: { header: { "Idempotency-Key": "order-42" } },
  body: { amount: 4200, currency: "EUR" },
});
if (error) throw new Error(error.error.message);
console.log(data.id, data.state, data.checkout_url);`;

/**
 * A folder like a merchant's project that has installed openapi-typescript, openapi-fetch and
 * TypeScript: paysim's own node_modules, linked, so that npx finds them there and never fetches.
 */
function clientProject(): string {
  const dir = useTempDir("paysim-openapi-client-");
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-shop", private: true, type: "module" }));
  const options = { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, skipLibCheck: true, types: ["node"] };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["client.ts"] }));
  writeFileSync(join(dir, "tsconfig.wrong.json"), JSON.stringify({ compilerOptions: { ...options, noEmit: true }, files: ["wrong.ts"] }));
  return dir;
}

const tsc = (dir: string, project: string) => run(join(dir, "node_modules", ".bin", "tsc"), ["-p", project], { cwd: dir });

describe("docs/api.md: a typed client generated from a running paysim", () => {
  it("shows the command this test runs", () => {
    const blocks = readBlocks(join(ROOT, "docs", "api.md"));
    expect(blocks.some((block) => block.body === COMMAND)).toBe(true);
    expect(blocks.some((block) => block.body === CLIENT)).toBe(true);
  });

  it("pins, in its install command, the versions this test runs the recipe with", () => {
    const install = readBlocks(join(ROOT, "docs", "api.md")).find((block) => block.body.startsWith("npm install --save-dev openapi-typescript@"));
    expect(install).toBeDefined();
    const pins = install!.body
      .split(" ")
      .slice(3)
      .map((spec) => spec.split("@") as [string, string]);
    expect(pins.map(([name]) => name).sort()).toEqual(["openapi-fetch", "openapi-typescript", "typescript"]);
    for (const [name, range] of pins) {
      const installed = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version as string;
      expect({ name, installed: installed.startsWith(`${range}.`) }).toEqual({ name, installed: true });
    }
  });

  it("generates the types with openapi-typescript, type-checks the client with them and runs it", async () => {
    const paysim = await usePaysim({ db: ":memory:" });
    const dir = clientProject();
    const port = Number(new URL(paysim.url).port);
    await run("bash", ["-c", rewriteCommand(COMMAND, new Map(), port)], { cwd: dir, env: { ...process.env, npm_config_offline: "true" } });

    writeFileSync(join(dir, "client.ts"), CLIENT);
    await tsc(dir, "tsconfig.json");
    const { stdout } = await run(process.execPath, ["client.js"], {
      cwd: dir,
      env: { ...process.env, PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey },
    });
    const [id, state, checkoutUrl] = stdout.trim().split(" ");
    expect(id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
    expect(state).toBe("created");
    expect(checkoutUrl).toBe(`${paysim.url}/checkout/${id}`);

    // The types are paysim's: an amount sent as a string does not compile.
    writeFileSync(join(dir, "wrong.ts"), CLIENT.replace("amount: 4200", 'amount: "4200"'));
    const wrong = await tsc(dir, "tsconfig.wrong.json").then(
      () => "",
      (failure: { stdout: string }) => failure.stdout,
    );
    expect(wrong).toMatch(/^wrong\.ts\(11,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m);
  }, 120_000);
});
