import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * A `python3` that can import `modules`, first on the PATH a child gets: the one already first on
 * PATH when it can, else Debian's /usr/bin/python3 (Debian's python3-* packages, which .ci/run
 * installs, serve that one, not always the python3 a version manager puts first). Undefined when
 * neither can; `folder` gets a `.python/python3` link when Debian's is the one.
 */
export function pythonWith(modules: readonly string[], folder: string): { PATH: string } | undefined {
  const imports = `import ${modules.join(", ")}`;
  const found = ["python3", "/usr/bin/python3"].find((python) => spawnSync(python, ["-c", imports]).status === 0);
  if (found === undefined) return undefined;
  if (found === "python3") return { PATH: process.env.PATH ?? "" };
  const bin = join(folder, ".python");
  mkdirSync(bin, { recursive: true });
  symlinkSync(found, join(bin, "python3"));
  return { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
}
