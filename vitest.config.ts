import { defineConfig } from 'vitest/config';
import { HeapOrder } from './test/support/heap-order';

/**
 * Four projects (`npm test` runs the first three; `npm run soak` the fourth):
 * - `units`: in-process specs (test/core, store, worker, features, ui, app). `isolate: false` lets them share
 *   one module graph per worker, so src/ is evaluated once and test/support/fixtures.ts parses and judges the
 *   ../shared runs once for all of them; the files that keep no shared runs run first (test/support/heap-order.ts).
 *   Such specs must not leave global state behind (no vi.mock / vi.stubGlobal without restoring it).
 * - `cli`: specs that drive the CLI in child processes (test/cli), isolated as usual.
 * - `browser`: specs that drive the app in headless Chromium (test/browser), isolated as usual.
 * - `soak`: soak and scale cases (test/soak: a million `{}`, whole-corpus loops, big fuzz counts), benchmarks
 *   of the same properties the gate checks on a small instance; not part of `npm test` or `npm run check`.
 * `cli`, `browser` and `soak` share one cache folder per run (test/support/run-once.ts): the app is built once,
 * the shared runs indexed once. Every spec hashes with the WASM sha256 (setup file), like the app and the CLI.
 */
const globalSetup = ['test/support/global-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
    setupFiles: ['test/support/setup-sha256.ts'],
    // `units` files that keep no shared runs in memory run first (test/support/heap-order.ts).
    sequence: { sequencer: HeapOrder },
    projects: [
      {
        extends: true,
        test: {
          name: 'units',
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
      { extends: true, test: { name: 'cli', include: ['test/cli/**/*.spec.ts'], globalSetup } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.spec.ts'], globalSetup } },
      { extends: true, test: { name: 'soak', include: ['test/soak/**/*.spec.ts'], globalSetup, testTimeout: 900_000, hookTimeout: 900_000 } },
    ],
  },
});
