// The main script of paysim's single executable (scripts/build-executable.mjs), in place of
// bin/paysim.js: the executable carries its own Node.js, so there is no version to check, and
// V8's code cache is in the executable rather than on disk.
import { prepareAssets, unsupportedPlatform, VERSION_LINE } from "./runtime.mjs";

function refuse(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // Answered here: the line names the platform the executable was built for, and needs no asset.
  process.stdout.write(`${VERSION_LINE}\n`);
} else {
  const refusal = unsupportedPlatform() ?? prepareAssets();
  if (refusal) refuse(refusal);
  import("../../dist/cli/main.js").then(
    ({ main }) => main(),
    (error) => {
      // A SQLite binding that cannot load (see src/store/sqlite-driver.ts) is said in one line, as bin/paysim.js does.
      if (!String(error?.message).startsWith("paysim cannot load its SQLite binding")) throw error;
      refuse(error.message);
    },
  );
}
