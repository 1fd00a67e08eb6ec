import { defineConfig } from "vitest/config";

/**
 * Three lanes, one run (`npm test` runs them all):
 * - unit: pure logic and the checks of the repository itself, no server and no process: seconds
 *   (`npm run test:unit`, the lane to run while editing);
 * - integration: a paysim in the test process, over real HTTP or `app.request()`, real SQLite;
 * - e2e: the built binary, a browser, a terminal, the docs' examples, load and crash runs.
 */
const UNIT = [
  "test/domain/**/*.test.ts",
  "test/shared/**/*.test.ts",
  "test/properties/**/*.test.ts",
  "test/fixtures/**/*.test.ts",
  "test/config.test.ts",
  "test/ui/{describe,model,reflow,rows,screen,width}.test.ts",
  "test/architecture/architecture-map.test.ts",
  "test/architecture/sqlite-binding.test.ts",
  "test/architecture/executable-apart.test.ts",
  "test/architecture/real-time-through-timers.test.ts",
  "test/docs/markdown-examples.test.ts",
  "test/docs/package-tables.test.ts",
  "test/server/middleware/request-log.test.ts",
];
const E2E = [
  "test/cli/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/executable/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/examples/**/*.test.ts",
  "test/reliability/**/*.test.ts",
  "test/ui/live-view-terminal.test.ts",
  "test/package-types.test.ts",
];
const ALL = ["test/**/*.test.ts", "test/**/*.test.tsx"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      { extends: true, test: { name: "integration", include: ALL, exclude: [...UNIT, ...E2E] } },
      { extends: true, test: { name: "e2e", include: E2E, exclude: UNIT } },
    ],
  },
});
