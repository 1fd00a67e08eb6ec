// The main script of paysim's single executable (scripts/build-executable.mjs), in place of
// bin/paysim.js: the executable carries its own Node.js, so there is no version to check, and
// V8's code cache is in the executable rather than on disk.
import { prepareAssets, unsupportedPlatform, VERSION_LINE } from "./runtime.mjs";

const refusal = unsupportedPlatform();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
prepareAssets();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${VERSION_LINE}\n`);
} else {
  import("../../dist/cli/main.js").then(
    ({ main }) => main(),
    (error) => {
      // A SQLite binding that cannot load (see src/store/sqlite-driver.ts) is said in one line, as bin/paysim.js does.
      if (!String(error?.message).startsWith("paysim cannot load its SQLite binding")) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
