// Bundles the CLI (after tsc) into dist/paysim-cli.js: one file to load instead
// of hundreds of modules halves the time from `paysim start` to serving.
// The library entry (dist/index.js) stays tsc's output. Ink and React are
// imported only for the live view, the SQLite bindings are native: all stay external.
import { build } from "esbuild";
import { readdirSync, readFileSync, rmSync } from "node:fs";

// Chunk names change with their content: drop the previous build's.
for (const name of readdirSync("dist")) {
  if (/^[a-z][a-z-]*-[A-Z0-9]{8}\.js$/.test(name) || name === "paysim-cli.js") rmSync(`dist/${name}`);
}

await build({
  entryPoints: { "paysim-cli": "dist/cli/main.js" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Chunks sit beside the entry: code finds package.json and fixtures/ one level up.
  chunkNames: "[name]-[hash]",
  external: ["better-sqlite3", "ink", "react", "react/jsx-runtime"],
  // CommonJS dependencies (commander, ms) call require(): give the ESM bundle one.
  banner: { js: 'import { createRequire as __paysimCreateRequire } from "node:module"; const require = __paysimCreateRequire(import.meta.url);' },
  logLevel: "warning",
  plugins: [resourceModulesInTheBundle()],
});

/**
 * Each resource definition links its module with a dynamic import (src/resources/define.ts), which
 * a start always follows, and each module links its dashboard pages so, which only the first
 * dashboard request follows. Split, each would be a chunk of its own, and the code it shares with
 * the rest another few: files every start loads. Bundled as a require() instead, each is part of
 * the one bundle and still evaluated only when its link is followed.
 */
function resourceModulesInTheBundle() {
  const links = [
    { file: /[\\/]dist[\\/]resources[\\/][^\\/]+[\\/]resource\.js$/, target: "./module.js" },
    { file: /[\\/]dist[\\/]resources[\\/][^\\/]+[\\/]module\.js$/, target: "./page.js" },
  ];
  return {
    name: "resource-modules-in-the-bundle",
    setup(build) {
      for (const { file, target } of links) {
        build.onLoad({ filter: file }, (args) => {
          const source = readFileSync(args.path, "utf8");
          const contents = source.replaceAll(`import("${target}")`, `Promise.resolve().then(() => require("${target}"))`);
          // A link written another way would be split into chunks again without a word: refuse it.
          if (contents === source && source.includes(target)) throw new Error(`${args.path}: its link is not import("${target}")`);
          return { contents, loader: "js" };
        });
      }
    },
  };
}
