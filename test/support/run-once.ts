/**
 * Setup shared by the spec files of one `vitest run` (each file runs in its own worker thread, so module
 * state is not shared): the first caller of `runOnce(key, make)` makes the thing in a fresh folder of the
 * run's cache, every other caller waits for it and gets the same folder. Callers treat the folder as
 * read-only (copy it when a spec writes beside it).
 *
 * The cache folder is made and removed by test/support/global-setup.ts and named by
 * TAU_INSPECT_TEST_CACHE. Without it (a spec or a bench run some other way) each process keeps its
 * own cache folder, removed when the process exits.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE_VARIABLE = 'TAU_INSPECT_TEST_CACHE';

let own: string | null = null;

function cacheDir(): string {
  const shared = process.env[CACHE_VARIABLE];
  if (shared) return shared;
  if (own === null) {
    const dir = mkdtempSync(join(tmpdir(), 'tau-inspect-test-cache-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    own = dir;
  }
  return own;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The folder `make` filled once for `key` in this test run. `make` gets an empty folder; when it throws,
 * this caller throws its error and every waiting caller throws a message naming it.
 */
export async function runOnce(key: string, make: (dir: string) => Promise<void>, timeoutMs = 900_000): Promise<string> {
  const cache = cacheDir();
  const done = join(cache, key);
  const failed = join(cache, `${key}.failed`);
  try {
    mkdirSync(join(cache, `${key}.lock`)); // atomic: exactly one caller gets here
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`${CACHE_VARIABLE}=${cache}: cannot use it as the test run's cache`, { cause: e });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (existsSync(done)) return done;
      if (existsSync(failed)) throw new Error(`${key}, made by another spec file of this run, failed:\n${readFileSync(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`${key}: still being made by another spec file after ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }
  const work = join(cache, `${key}.tmp`);
  mkdirSync(work);
  try {
    await make(work);
  } catch (e) {
    writeFileSync(failed, e instanceof Error ? (e.stack ?? e.message) : String(e));
    throw e;
  }
  renameSync(work, done);
  return done;
}
