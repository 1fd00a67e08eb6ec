// `npm run build:executable`: paysim as one executable for this machine, with Node.js's single
// executable applications (docs/install.md). Run after `npm run build` (the npm script does both).
// The executable is this Node.js's own binary with a blob injected into it: the CLI bundled to one
// CommonJS file (the only main script a Node.js 24 single executable starts), V8's code cache of
// it, and as assets package.json's version, fixtures/ and better-sqlite3's binding for this platform
// (scripts/executable/runtime.mjs writes them to a cache folder on the first run).
//   node scripts/build-executable.mjs [--out <folder>]     (default dist-executable/)
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXECUTABLE_DIR = join(ROOT, "scripts", "executable");
const PLATFORM = `${process.platform}-${process.arch}`;
/** The fuse Node.js looks for to know a blob was injected (Node.js's single executable docs). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

function refuse(message) {
  process.stderr.write(`build:executable: ${message}\n`);
  process.exit(1);
}

const outIndex = process.argv.indexOf("--out");
if (outIndex > 0 && !process.argv[outIndex + 1]) refuse("--out needs a folder.");
const OUT = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(ROOT, "dist-executable"));
const EXECUTABLE = join(OUT, process.platform === "win32" ? "paysim.exe" : "paysim");

const [major] = process.versions.node.split(".").map(Number);
if (major < 24) refuse(`needs Node.js 24 or newer, whose binary becomes the executable; this is Node.js ${process.version}.`);
if (!existsSync(join(ROOT, "dist", "cli", "main.js"))) refuse("no dist/cli/main.js: run npm run build first.");

/**
 * The binding better-sqlite3 itself would load on this machine: one compiled on purpose
 * (build/Release), else the prebuilt one its package carries for this platform. Node-API binaries
 * load on every Node.js with that Node-API, the executable's own among them (checked below).
 */
function sqliteBinding() {
  const packageDir = dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));
  const compiled = join(packageDir, "build", "Release", "better_sqlite3.node");
  if (existsSync(compiled)) return compiled;
  const { getPrebuildPath } = createRequire(import.meta.url)(join(packageDir, "lib", "binding.js"));
  const prebuilt = getPrebuildPath();
  if (!prebuilt) refuse(`better-sqlite3 has no SQLite binding for ${PLATFORM} (none prebuilt, none compiled): paysim cannot be one executable here.`);
  return prebuilt;
}
const binding = sqliteBinding();
try {
  process.dlopen({ exports: {} }, binding);
} catch (error) {
  refuse(`the SQLite binding ${relative(ROOT, binding)} does not load in Node.js ${process.version}: ${String(error.message).split("\n")[0]}`);
}

// Only the executable is written to OUT (--out may name a folder that holds other things); what
// the build makes on the way goes to a folder of its own, removed at the end.
mkdirSync(OUT, { recursive: true });
rmSync(EXECUTABLE, { force: true });
const WORK = mkdtempSync(join(tmpdir(), "paysim-build-executable-"));
process.on("exit", () => rmSync(WORK, { recursive: true, force: true }));

// The assets: what the bundle reads by path (under files/, laid out as in the package) and the binding.
const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const assetSources = { "better_sqlite3.node": binding };
writeFileSync(join(WORK, "package.json"), `${JSON.stringify({ name: "paysim", version })}\n`);
assetSources["files/package.json"] = join(WORK, "package.json");
for (const entry of readdirSync(join(ROOT, "fixtures"), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const path = join(entry.parentPath, entry.name);
  assetSources[`files/${relative(ROOT, path).split("\\").join("/")}`] = path;
}
const hash = createHash("sha256");
for (const [key, path] of Object.entries(assetSources).sort(([a], [b]) => a.localeCompare(b))) {
  const bytes = readFileSync(path);
  hash.update(`${key}\0${bytes.length}\0`).update(bytes);
}
const assetsSha256 = hash.digest("hex");

/** Modules of the npm build swapped for the executable's own (see each file in scripts/executable/). */
const executablePlugin = {
  name: "paysim-executable",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.importer.endsWith(join("store", "sqlite-driver.js")) ? { path: join(EXECUTABLE_DIR, "better-sqlite3.cjs") } : undefined,
    );
    pluginBuild.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: join(EXECUTABLE_DIR, "yoga.mjs") }));
    // The driver requires better-sqlite3 through createRequire, which a bundle cannot follow: the bundle's own require can.
    patch(pluginBuild, /store[\\/]sqlite-driver\.js$/, [["const require = createRequire(import.meta.url);", ""]]);
    patch(pluginBuild, /cli[\\/]commands[\\/]start\.js$/, [
      [
        'await import("../../ui/render-live-view.js")',
        `await import(${JSON.stringify(join(EXECUTABLE_DIR, "yoga.mjs"))}).then((yoga) => yoga.ready()).then(() => import("../../ui/render-live-view.js"))`,
      ],
    ]);
    // Ink awaits React's developer tools at the top level when DEV=true; the executable carries none.
    patch(pluginBuild, /ink[\\/]build[\\/]reconciler\.js$/, [
      ["await import('./devtools.js');", "void 0;"],
      ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
    ]);
  },
};

/** Replaces each `from` by its `to` in one module, and stops the build when the module no longer holds one of them once. */
function patch(pluginBuild, file, replacements) {
  pluginBuild.onLoad({ filter: file }, (args) => {
    let text = readFileSync(args.path, "utf8");
    for (const [from, to] of replacements) {
      if (text.split(from).length !== 2) throw new Error(`${relative(ROOT, args.path)} no longer holds ${from} once: update scripts/build-executable.mjs`);
      text = text.replace(from, to);
    }
    return { contents: text, loader: "js", resolveDir: dirname(args.path) };
  });
}

const bundle = join(WORK, "paysim.cjs");
await build({
  entryPoints: [join(EXECUTABLE_DIR, "main.mjs")],
  outfile: bundle,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node24",
  define: {
    "import.meta.url": "globalThis.__paysimExecutableModuleUrl",
    PAYSIM_EXECUTABLE_VERSION: JSON.stringify(version),
    PAYSIM_EXECUTABLE_PLATFORM: JSON.stringify(PLATFORM),
    PAYSIM_EXECUTABLE_ASSETS_SHA256: JSON.stringify(assetsSha256),
  },
  plugins: [executablePlugin],
  logLevel: "warning",
});

const blob = join(WORK, "paysim.blob");
const seaConfig = join(WORK, "sea-config.json");
writeFileSync(
  seaConfig,
  JSON.stringify(
    // useCodeCache: V8's compiled code of the bundle travels in the blob, as the npm install keeps it in
    // Node.js's compile cache; without it every run compiles the whole bundle (docs/performance.md).
    { main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets: assetSources },
    null,
    2,
  ),
);
const prepared = spawnSync(process.execPath, ["--experimental-sea-config", seaConfig], { encoding: "utf8" });
if (prepared.status !== 0) refuse(`Node.js could not prepare the blob:\n${prepared.stdout}${prepared.stderr}`);

copyFileSync(process.execPath, EXECUTABLE);
chmodSync(EXECUTABLE, 0o755);
if (process.platform === "darwin") execFileSync("codesign", ["--remove-signature", EXECUTABLE]);
// postject in a process of its own: its ELF reader warns about sections it need not read, on the console, however it goes.
const postject = createRequire(import.meta.url).resolve("postject/dist/cli.js");
const injectArgs = [postject, EXECUTABLE, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE];
if (process.platform === "darwin") injectArgs.push("--macho-segment-name", "NODE_SEA");
const injected = spawnSync(process.execPath, injectArgs, { encoding: "utf8" });
if (injected.status !== 0) refuse(`postject could not inject the blob into ${EXECUTABLE}:\n${injected.stdout}${injected.stderr}`);
if (process.platform === "darwin") execFileSync("codesign", ["--sign", "-", EXECUTABLE]);

const line = execFileSync(EXECUTABLE, ["--version"], { encoding: "utf8" }).trim();
const shown = relative(process.cwd(), EXECUTABLE);
console.log(`build:executable: ${shown.startsWith("..") ? EXECUTABLE : shown}: ${line}`);
