/**
 * Vitest global setup of the `cli`, `browser` and `soak` projects: one cache folder for the whole run, where
 * test/support/run-once.ts keeps what several spec files need and only one should make (the app's
 * build, the index of the shared runs). Removed when the run ends. When TAU_INSPECT_TEST_CACHE is
 * already set (scripts/check.mjs runs two vitest processes that share one), that folder is used and
 * left to whoever made it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_VARIABLE } from './run-once';

export default function setup(): (() => void) | undefined {
  // The CLI keeps validated τ² DBs in $XDG_CACHE_HOME/tau-inspect (src/cli/tau2-db-cache.ts): in the run's folder, never the user's.
  if (process.env[CACHE_VARIABLE]) {
    process.env.XDG_CACHE_HOME = join(process.env[CACHE_VARIABLE], 'xdg-cache');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tau-inspect-test-cache-'));
  process.env[CACHE_VARIABLE] = dir;
  process.env.XDG_CACHE_HOME = join(dir, 'xdg-cache');
  return () => {
    rmSync(dir, { recursive: true, force: true });
    delete process.env[CACHE_VARIABLE];
    delete process.env.XDG_CACHE_HOME;
  };
}
