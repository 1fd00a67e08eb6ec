// Runs only inside paysim's single executable (made by scripts/build-executable.mjs, never part of the
// npm package): a Node.js single executable application carries its files as assets, not on disk.
// The bundled program reads two kinds of file at run time: its data (package.json's version,
// fixtures/) by path next to its code, and better-sqlite3's native binding, which the operating
// system can only load from a file. Both are written once to a cache folder named by the hash of
// all of them, so a run after the first writes nothing and an executable of another build never
// reads this one's files.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { getAsset, getAssetKeys } from "node:sea";
import { pathToFileURL } from "node:url";

/* global PAYSIM_EXECUTABLE_VERSION, PAYSIM_EXECUTABLE_PLATFORM, PAYSIM_EXECUTABLE_ASSETS_SHA256 -- set by the build */

/** The asset that holds better-sqlite3's binding, beside the data files under files/. */
export const BINDING_ASSET = "better_sqlite3.node";
const FILES = "files/";

/** `paysim 0.1.0 (linux-x64, single executable)`: what `--version` says in the executable. */
export const VERSION_LINE = `paysim ${PAYSIM_EXECUTABLE_VERSION} (${PAYSIM_EXECUTABLE_PLATFORM}, single executable)`;

/** Why this executable cannot run on this machine, in one line; undefined when it can. */
export function unsupportedPlatform() {
  const here = `${process.platform}-${process.arch}`;
  if (here === PAYSIM_EXECUTABLE_PLATFORM && getAssetKeys().includes(BINDING_ASSET)) return undefined;
  return `paysim: this executable has no SQLite binding for ${here} (it was built for ${PAYSIM_EXECUTABLE_PLATFORM}); build one on ${here} with npm run build:executable.`;
}

/** The folder the assets are written to: the user's own cache, as the npm install's compile cache. */
function assetFolder() {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cacheHome, "paysim", "executable", PAYSIM_EXECUTABLE_ASSETS_SHA256);
}

/**
 * Writes the assets to their folder unless it is there: into a fresh folder beside it, renamed into
 * place in one step, so that a folder of that name is always whole, and of two first runs at once
 * one rename wins and the other drops its copy.
 */
function extractOnce(folder) {
  if (existsSync(folder)) return;
  mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
  const partial = `${folder}.${process.pid}-${Date.now()}.partial`;
  try {
    for (const key of getAssetKeys()) {
      const path = join(partial, key);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, new Uint8Array(getAsset(key)), { mode: 0o600 });
    }
    renameSync(partial, folder);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(folder)) throw error;
  }
}

const folder = assetFolder();
let addon;

/**
 * Makes the assets readable as files and says where the bundle's code "lives": the bundle reads
 * package.json and fixtures/ relative to import.meta.url, which the build points here. Answers why
 * it could not, in one line; undefined when it could.
 */
export function prepareAssets() {
  try {
    extractOnce(folder);
  } catch (error) {
    return `paysim: cannot write its SQLite binding and data files to ${folder} (${error.code ?? error.message}); set XDG_CACHE_HOME to a folder it can write.`;
  }
  globalThis.__paysimExecutableModuleUrl = pathToFileURL(join(folder, FILES, "dist", "paysim.js")).href;
  return undefined;
}

/** better-sqlite3's binding, loaded once from the cache folder (what its nativeBinding option takes). */
export function sqliteAddon() {
  if (!addon) {
    const module = { exports: {} };
    process.dlopen(module, join(folder, BINDING_ASSET));
    addon = module.exports;
  }
  return addon;
}
