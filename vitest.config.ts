import { defineConfig } from 'vitest/config';

/**
 * Two projects in one run:
 * - `core`: pure in-process specs (core, store, worker, features). `isolate: false` lets them share one
 *   module graph per worker, so src/ is evaluated once and test/support/fixtures.ts parses and
 *   judges the ../shared runs once for all of them. Such specs must not leave global state
 *   behind (no vi.mock / vi.stubGlobal without restoring it).
 * - `processes`: specs that drive the CLI or Chromium in child processes, isolated as usual.
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
          name: 'processes',
          include: ['test/cli/**/*.spec.ts', 'test/browser/**/*.spec.ts'],
          // One cache folder per run (test/support/run-once.ts): the app is built once, the shared runs indexed once.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
