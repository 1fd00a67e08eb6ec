// `npm run lint` (part of `npm test`, docs/architecture.md): ESLint's recommended rules and
// typescript-eslint's, over the code paysim runs, tests and measures with. dist/ is built output.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The Node.js globals the plain JavaScript files (bin/, bench/, scripts/, a few test fixtures) use; TypeScript knows them from @types/node. */
const nodeGlobals = Object.fromEntries(
  [
    "AbortController",
    "AbortSignal",
    "Buffer",
    "clearInterval",
    "clearTimeout",
    "console",
    "fetch",
    "performance",
    "process",
    "queueMicrotask",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "structuredClone",
    "TextDecoder",
    "TextEncoder",
    "URL",
    "URLSearchParams",
  ].map((name) => [name, "readonly"]),
);

export default tseslint.config(
  { ignores: ["dist/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: nodeGlobals },
  },
  {
    rules: {
      // A leading underscore marks a binding left unused on purpose (a parameter a signature needs), and
      // a rest sibling is how a field is left out of a copy: `const { request_id: _, ...shown } = answer`.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The one CommonJS module: what the single executable's bundle loads in place of better-sqlite3 (a CommonJS package).
    files: ["scripts/executable/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["test/**"],
    // Tests read the API's JSON answers untyped (test/helpers/paysim.ts) and assert their shape: the assertion is the check, not the type.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
