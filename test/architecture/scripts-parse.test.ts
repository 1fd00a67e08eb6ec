import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// npm test runs none of these: a merge once left bench/run.mjs unparsable, and only the next
// `npm run bench` found out.
describe("the scripts npm test does not run", () => {
  const scripts = ["bench", "scripts", "bin"].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => /\.(mjs|js)$/.test(name))
      .map((name) => `${dir}/${name}`),
  );

  it.each(scripts)("%s parses", (script) => {
    const check = spawnSync(process.execPath, ["--check", join(ROOT, script)], { encoding: "utf8" });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
  });
});
