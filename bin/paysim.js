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

// Node.js's on-disk compile cache: a run after the first reuses the code V8 compiled for paysim's
// bundle instead of compiling it again, which is most of what separates `paysim start` from
// serving. Kept in the user's own cache folder (not the shared temporary one, where another user
// could leave code for paysim to run); NODE_COMPILE_CACHE picks another, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. A folder it cannot write only means no cache.
const { enableCompileCache } = await import("node:module");
const { homedir } = await import("node:os");
const cacheHome = process.env.XDG_CACHE_HOME || `${homedir()}/.cache`;
enableCompileCache?.(process.env.NODE_COMPILE_CACHE || `${cacheHome}/paysim/node-compile-cache`);

import("../dist/paysim-cli.js").then(
  ({ main }) => main(),
  (error) => {
    // A SQLite binding that cannot load (see src/store/sqlite-driver.ts) is said in one line.
    if (!String(error?.message).startsWith("paysim cannot load its SQLite binding")) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
