import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDb, DOMAIN_TABLES, type Db, type Domain } from '../../src/core/model/data/db';

const here = dirname(fileURLToPath(import.meta.url));

/** `../shared` beside the repository (CI lays it there). */
export const SHARED_DIR = resolve(here, '../../../shared');

/** τ-bench data root: `$TAU_BENCH_DATA` or `../shared/tau-bench`. */
export const DATA_DIR = process.env.TAU_BENCH_DATA ?? join(SHARED_DIR, 'tau-bench');

export const COMMITS = {
  pinned: '14bf0ef52e595922d597a38f32d3e8c0dce3a8f8',
  historical: '7362a1708d720a4d697d042f21fd8637ea144c3b',
} as const;

export const hasShared = existsSync(join(SHARED_DIR, 'expected'));

export function readShared(...parts: string[]): string {
  return readFileSync(join(SHARED_DIR, ...parts), 'utf8');
}

export function dataTexts(commit: string, domain: Domain): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const t of DOMAIN_TABLES[domain])
    texts[t] = readFileSync(join(DATA_DIR, commit, 'tau_bench', 'envs', domain, 'data', `${t}.json`), 'utf8');
  return texts;
}

const dbCache = new Map<string, Db>();

/** The frozen initial DB of a domain at a commit (full sha or its 7-char prefix). */
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
