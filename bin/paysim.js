#!/usr/bin/env node
// Before anything else is loaded: on a Node.js paysim does not support, one line that says which
// it needs and which it found (the modules below would otherwise fail with an error that says neither).
const MINIMUM_MAJOR = 20;
const major = Number(process.versions.node.split(".")[0]);
if (major < MINIMUM_MAJOR) {
  process.stderr.write(`paysim needs Node.js ${MINIMUM_MAJOR} or newer (22 or 24 recommended); this is Node.js ${process.version}.\n`);
  process.exit(1);
}

import("../dist/paysim-cli.js").then(
  ({ main }) => main(),
  (error) => {
    // The SQLite binding missing for this Node.js (see src/store/sqlite-driver.ts) is said in one line.
    if (!String(error?.message).startsWith("paysim cannot load its SQLite binding")) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
