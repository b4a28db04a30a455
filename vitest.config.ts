import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Four projects (`npm test` runs the first three; `npm run soak` the fourth):
 * - `units`: in-process specs (test/core, store, worker, features, ui, app). `isolate: false` lets them share
 *   one module graph per worker, so src/ is evaluated once and test/support/fixtures.ts parses and judges the
 *   ../shared runs once for all of them; the files that keep no shared runs run first (HeapOrder below).
 *   Such specs must not leave global state behind (no vi.mock / vi.stubGlobal without restoring it).
 * - `cli`: specs that drive the CLI in child processes (test/cli), isolated as usual.
 * - `browser`: specs that drive the app in headless Chromium (test/browser): one app server and one Chromium for
 *   all of them (test/browser/global-setup.ts), so the files run one at a time.
 * - `soak`: soak and scale cases (test/soak: a million `{}`, whole-corpus loops, big fuzz counts), benchmarks
 *   of the same properties the gate checks on a small instance; not part of `npm test` or `npm run check`.
 * `cli`, `browser` and `soak` share one cache folder per run (test/support/run-once.ts): the app is built once,
 * the shared runs indexed once. Every spec hashes with the WASM sha256 (setup file), like the app and the CLI.
 */
const globalSetup = ['test/support/global-setup.ts'];

/** Names of the fixtures that keep shared runs for the rest of the run. */
const KEEPS_SHARED_RUNS = /\b(sharedRun|evaluatedSharedRun|sharedExpected|sharedExpectedRaw)\b/;

/** Whether the spec file, or a `./….cases` module beside it that it imports, uses those fixtures. */
function keepsSharedRuns(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (KEEPS_SHARED_RUNS.test(text)) return true;
  for (const m of text.matchAll(/from '(\.\/[^']+\.cases)'/g))
    if (KEEPS_SHARED_RUNS.test(readFileSync(join(dirname(file), `${m[1]!}.ts`), 'utf8'))) return true;
  return false;
}

/**
 * The order of the `units` spec files: those that keep no shared runs in memory first, then
 * those that do. The `units` project shares one module graph per worker (`isolate: false`), so once a spec has
 * parsed and judged the shared runs (test/support/fixtures.ts: `sharedRun`, `evaluatedSharedRun`, kept for every
 * later spec), the worker's heap holds them for the rest of the run, and every garbage collection walks them: a
 * spec that allocates much (a Blob store of tens of megabytes, a big file read in slices) runs several times
 * slower after them than before. Within each group, and for every other project, vitest's own order.
 */
class HeapOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const units = sorted.filter((s) => s.project.name === 'units');
    const reordered = [...units.filter((s) => !keepsSharedRuns(s.moduleId)), ...units.filter((s) => keepsSharedRuns(s.moduleId))];
    // The units files keep their places in the whole list, in the new order among themselves.
    let next = 0;
    return sorted.map((s) => (s.project.name === 'units' ? reordered[next++]! : s));
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
    setupFiles: ['test/support/setup-sha256.ts'],
    // `units` files that keep no shared runs in memory run first (HeapOrder above).
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
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.spec.ts'],
          // The cache folder, plus one app server and one Chromium for all the files (test/browser/global-setup.ts),
          // which is why the files run one at a time: a spec points the shared server at its data while it runs.
          globalSetup: ['test/browser/global-setup.ts'],
          fileParallelism: false,
          // A page's work is a worker's message away: on a busy 2-core machine 1 s (vitest's default) is not enough.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          include: ['test/soak/**/*.spec.ts'],
          // Browser soak cases take the run's app server and Chromium as the browser specs do.
          globalSetup: ['test/browser/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 1_800_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
