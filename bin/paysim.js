#!/usr/bin/env node
// Before anything else is loaded: on a Node.js paysim does not support, one line that says which
// it needs and which it found (the modules below would otherwise fail with an error that says neither).
// 22.14 is the first Node.js with Node-API 10, which paysim's SQLite binding is built on.
const MINIMUM = [22, 14];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
  process.stderr.write(`paysim needs Node.js ${MINIMUM.join(".")} or newer (22 or 24); this is Node.js ${process.version}.\n`);
  process.exit(1);
}

import("../dist/paysim-cli.js").then(
  ({ main }) => main(),
  (error) => {
    // A SQLite binding that cannot load (see src/store/sqlite-driver.ts) is said in one line.
    if (!String(error?.message).startsWith("paysim cannot load its SQLite binding")) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
