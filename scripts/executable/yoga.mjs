// In paysim's single executable, Ink's layout engine (yoga-layout) in place of the package's entry,
// which awaits its WebAssembly at the top level: a CommonJS bundle, the only kind a Node.js 24
// single executable starts, cannot hold that. This one loads it when the live view is about to be
// shown (scripts/build-executable.mjs makes `paysim start` wait for `ready()` first), so that the
// other commands never pay for it. Ink reads the engine's members only when it lays out a frame.
import { loadYoga } from "yoga-layout/load";

const Yoga = {};
let loading;

export function ready() {
  loading ??= loadYoga().then((loaded) => Object.assign(Yoga, loaded));
  return loading;
}

export default Yoga;
