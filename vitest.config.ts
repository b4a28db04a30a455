import { defineConfig } from 'vitest/config';

/**
 * Two projects in one run:
 * - `core`: pure in-process specs (core, store, worker, features). `isolate: false` lets them share one
 *   module graph per worker, so src/ is evaluated once and test/support/fixtures.ts parses and
 *   judges the ../shared runs once for all of them. Such specs must not leave global state
 *   behind (no vi.mock / vi.stubGlobal without restoring it).
 * - `cli`: specs that drive the CLI in child processes, isolated as usual.
 * - `browser`: specs that drive the app in headless Chromium: one app server and one browser for all of
 *   them (test/browser/global-setup.ts), so the files run one at a time.
 * Every spec hashes with the WASM sha256 (setup file), like the app and the CLI.
 */
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
    setupFiles: ['test/support/setup-sha256.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: [
            'test/core/**/*.spec.ts',
            'test/store/**/*.spec.ts',
            'test/worker/**/*.spec.ts',
            'test/features/**/*.spec.{ts,tsx}',
            'test/ui/**/*.spec.{ts,tsx}',
            'test/app/**/*.spec.{ts,tsx}',
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          include: ['test/cli/**/*.spec.ts'],
          // One cache folder per run (test/support/run-once.ts): the app is built once, the shared runs indexed once.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.spec.ts'],
          // The cache folder, plus one app server and one Chromium for all the files (test/browser/global-setup.ts),
          // which is why the files run one at a time: a spec points the shared server at its data while it runs.
          globalSetup: ['test/browser/global-setup.ts'],
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Soak and scale cases (`npm run soak`): benchmarks of robustness, not gate tests; `npm test` and
          // `npm run check` leave them out. Each keeps the assertions of a small case the gate runs.
          name: 'soak',
          include: ['test/soak/**/*.spec.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 1_800_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
