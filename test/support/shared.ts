import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { buildDb, DOMAIN_TABLES, type Db, type Domain } from '../../src/core/model/data/db';

const here = dirname(fileURLToPath(import.meta.url));

/** `../shared` beside the repository (CI lays it there), or `$TAU_INSPECT_SHARED`. */
export const SHARED_DIR = resolve(process.env.TAU_INSPECT_SHARED || join(here, '../../../shared'));

/** τ-bench data root: `$TAU_BENCH_DATA` or `../shared/tau-bench`. */
export const DATA_DIR = resolve(process.env.TAU_BENCH_DATA || join(SHARED_DIR, 'tau-bench'));

export const COMMITS = {
  pinned: '14bf0ef52e595922d597a38f32d3e8c0dce3a8f8',
  historical: '7362a1708d720a4d697d042f21fd8637ea144c3b',
} as const;

/** What is missing for specs that need `../shared` (empty when everything is there). */
export const sharedMissing: readonly string[] = [
  ...['expected', 'runs'].filter((d) => !existsSync(join(SHARED_DIR, d))).map((d) => join(SHARED_DIR, d)),
  ...(existsSync(DATA_DIR) ? [] : [DATA_DIR]),
];

/** `../shared` (expected verdicts, run files) and the τ-bench data are all there. */
export const hasShared = sharedMissing.length === 0;

/** `REQUIRE_SHARED=1` (set in CI): specs that need `../shared` fail instead of skipping when it is missing. */
export const requireShared = process.env.REQUIRE_SHARED === '1';

const missingMessage = (): string =>
  `../shared is incomplete; missing: ${sharedMissing.join(', ')} (lay out ../shared, or set TAU_INSPECT_SHARED / TAU_BENCH_DATA)`;

/** A test that fails naming what is missing (run under REQUIRE_SHARED=1, skipped otherwise). */
const missingTest = (name: string): void =>
  (requireShared ? it : it.skip)(name, () => {
    throw new Error(`REQUIRE_SHARED=1: ${missingMessage()}`);
  });

/**
 * `describe` for suites that need `../shared`. When it is missing the factory is not called at
 * all (so it may list shared files for `describe.each`); the suite holds one test instead that is
 * skipped, or fails naming what is missing under `REQUIRE_SHARED=1` (CI).
 * Keep the factory cheap: parse and judge in `beforeAll` / tests (see test/support/fixtures.ts),
 * since vitest runs describe bodies at collection.
 */
export function describeShared(name: string, factory: () => void): void {
  if (hasShared) describe(name, factory);
  else describe(name, () => missingTest('needs ../shared'));
}

/** `it` for a single test that needs `../shared` (same rules as `describeShared`). */
export function itShared(name: string, fn: () => unknown, timeout?: number): void {
  if (hasShared) it(name, fn, timeout);
  else missingTest(`${name} (needs ../shared)`);
}

export function readShared(...parts: string[]): string {
  return readFileSync(join(SHARED_DIR, ...parts), 'utf8');
}

export function dataTexts(commit: string, domain: Domain): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const t of DOMAIN_TABLES[domain]) texts[t] = readFileSync(join(DATA_DIR, commit, 'tau_bench', 'envs', domain, 'data', `${t}.json`), 'utf8');
  return texts;
}

const dbCache = new Map<string, Db>();

/** The frozen initial DB of a domain at a commit (full sha or its 7-char prefix); read once per worker. */
export function sharedDb(commit: string, domain: Domain): Db {
  const full = Object.values(COMMITS).find((c) => c.startsWith(commit)) ?? commit;
  const key = `${full}/${domain}`;
  let db = dbCache.get(key);
  if (!db) {
    db = buildDb(domain, dataTexts(full, domain));
    dbCache.set(key, db);
  }
  return db;
}

/** τ²-bench material: `../shared/tau2` (data, runs, expected), or `$TAU2_SHARED`. */
export const TAU2_DIR = resolve(process.env.TAU2_SHARED || join(SHARED_DIR, 'tau2'));
const tau2Missing = ['data', 'runs', 'expected'].filter((d) => !existsSync(join(TAU2_DIR, d))).map((d) => join(TAU2_DIR, d));

/** `describe` for suites that need `../shared/tau2` (skipped without it, failing under REQUIRE_SHARED=1). */
export function describeTau2(name: string, factory: () => void): void {
  if (tau2Missing.length === 0) describe(name, factory);
  else
    describe(name, () =>
      (requireShared ? it : it.skip)('needs ../shared/tau2', () => {
        throw new Error(`REQUIRE_SHARED=1: ../shared/tau2 is incomplete; missing: ${tau2Missing.join(', ')}`);
      }),
    );
}
