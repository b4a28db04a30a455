/**
 * The CLI's cache of validated τ² DBs (src/cli/tau2-db-cache.ts) is safe: two processes filling it at once, a cache
 * file damaged or cut short, the data files changed under the same path — each run judges exactly as `--no-cache`
 * does, and a fallback says so on standard error; old files are pruned. Each spec has a cache folder ($XDG_CACHE_HOME) of its own.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tau2Data } from '../../src/cli/tau2/db-cache';
import { runWithCache, runWithCacheAsync } from '../support/cache-run';
import { cliBundle } from '../support/cli-bundle';
import { describeTau2, TAU2_DIR } from '../support/shared';

const COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';
const AIRLINE = 'sierra-research__pr171-ironforge-v3-deepseek-airline.json';
const MOCK = 'sierra-research__pr170-e2e-mock-baseline.json';

let dir = '';
let bundle = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tau2-db-cache-'));
  bundle = await cliBundle();
  return () => rmSync(dir, { recursive: true, force: true });
});

const args = (file: string, data: string, ...more: string[]) => [bundle, 'evaluate', file, '--data', data, '--json', ...more];
const run = runWithCache;
const runAsync = runWithCacheAsync;
const cacheNotes = (err: string) => err.split('\n').filter((l) => l.startsWith('note: τ² DB cache:'));
/** After a data file changed under the same path: judged as `--no-cache` judges the files now (not as `before`), the DBs validated and kept again. */
const expectJudgedAfresh = (cache: string, unused: string, a: string[], before: string): void => {
  const after = run(cache, a);
  const exact = run(unused, [...a, '--no-cache']);
  expect(after.code, after.err).toBe(0);
  expect(after.out).toBe(exact.out);
  expect(after.out).not.toBe(before);
  expect(cacheNotes(after.err)).toEqual([expect.stringContaining('validated and kept in')]);
};
// The DB cache's files (the compiled code's, `cli-code-*`, beside them are code-cache.spec's; the stamps' `.key` files are
// `keyFiles`, the known hashes' `.hashes` files their spec's).
const cacheFiles = (cache: string) =>
  readdirSync(join(cache, 'tau-inspect')).filter((f) => !f.startsWith('cli-code-') && !f.endsWith('.key') && !f.endsWith('.hashes'));
const keyFiles = (cache: string) => readdirSync(join(cache, 'tau-inspect')).filter((f) => f.endsWith('.key'));

describe('the τ² DB cache’s stamps', () => {
  it('a data file read whole and settled: the cache file is found by its stamp without reading it; a file changed since, or just written, is not', async () => {
    const root = join(dir, 'stamp-data');
    const folder = join(dir, 'stamp-cache');
    mkdirSync(join(root, 'c'), { recursive: true });
    writeFileSync(join(root, 'c', 'db.json'), '{"a": 1}');
    writeFileSync(join(root, 'c', 'fresh.json'), '{"b": 2}');
    const places = (file: string) => ({ domain: 'mock', code: 'code', files: [[join('x', file), join('c', file)]] });
    const keep = async (file: string) => {
      const { read, store } = tau2Data(root, folder);
      const text = (await read(join('c', file)))!;
      expect(await store!.peek!(places(file))).toBeNull();
      await store!.put({ domain: 'mock', code: 'code', files: [{ where: join('c', file), text }] }, () => ({
        json: `{"of": "${file}"}`,
        bytes: new Uint8Array([1, 2]),
      }));
      return tau2Data(root, folder).store!;
    };
    await new Promise((ok) => setTimeout(ok, 2100));
    writeFileSync(join(root, 'c', 'fresh.json'), '{"b": 3}');
    const store = await keep('db.json');
    const found = await store.peek!(places('db.json'));
    expect(found?.where).toEqual([join('c', 'db.json')]);
    expect(found?.snapshot.json).toBe('{"of": "db.json"}');
    expect([...found!.snapshot.bytes]).toEqual([1, 2]);
    // Written less than 2 s before its read: no stamp kept.
    expect(await (await keep('fresh.json')).peek!(places('fresh.json'))).toBeNull();
    // The same bytes written again: its change time moved, so its stamp is another.
    writeFileSync(join(root, 'c', 'db.json'), '{"a": 1}');
    expect(await store.peek!(places('db.json'))).toBeNull();
  });
});

describeTau2('the τ² DB cache of the CLI', () => {
  const data = () => join(TAU2_DIR, 'data');
  const file = () => join(TAU2_DIR, 'runs', AIRLINE);

  it('two processes filling it at once: both judge exactly, one whole file is left, the next run reads it', async () => {
    const exact = run(join(dir, 'unused'), args(file(), data(), '--no-cache'));
    expect(exact.code, exact.err).toBe(0);
    expect(cacheNotes(exact.err)).toEqual([]);
    const cache = join(dir, 'both');
    const [a, b] = await Promise.all([runAsync(cache, args(file(), data())), runAsync(cache, args(file(), data()))]);
    for (const r of [a, b]) {
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(exact.out);
    }
    // No temporary file left behind; the one cache file is whole (the next run takes it without a note).
    expect(cacheFiles(cache)).toHaveLength(1);
    expect(cacheFiles(cache)[0]).toMatch(/^tau2-airline-[0-9a-f]{32}\.cache$/);
    // ../shared's data files were written long before: their stamps name that file (one `.key` file, whole).
    expect(keyFiles(cache)).toEqual([expect.stringMatching(/^tau2-airline-[0-9a-f]{32}\.key$/)]);
    const warm = run(cache, args(file(), data()));
    expect(warm.code, warm.err).toBe(0);
    expect(cacheNotes(warm.err)).toEqual([]);
    expect(warm.out).toBe(exact.out);
  });

  it('a cache file damaged or cut short: noted, judged from the data files exactly, and written again', () => {
    const exact = run(join(dir, 'unused'), args(file(), data(), '--no-cache'));
    const cache = join(dir, 'damaged');
    const first = run(cache, args(file(), data()));
    expect(cacheNotes(first.err)).toEqual([expect.stringContaining('validated and kept in')]);
    const path = join(cache, 'tau-inspect', cacheFiles(cache)[0]!);
    const good = readFileSync(path);
    // The header, the JSON (checksummed), then the hashers' texts and the records (checked against their hashes by the core).
    const jsonEnd = good.indexOf(10) + 1 + Number(/ (\d+) \d+\n/.exec(good.subarray(0, good.indexOf(10) + 1).toString())![1]);
    const flipped = (at: number) => {
      const b = Buffer.from(good);
      b[at]! ^= 0x04;
      return b;
    };
    for (const [what, bytes, says] of [
      ['one bit flipped in the JSON', flipped(jsonEnd - 1000), 'its checksum differs'],
      ['one bit flipped in the bytes (texts and records)', flipped(good.length - 1000), 'does not hash to'],
      ['cut short', good.subarray(0, good.length >> 1), 'cut short'],
      ['no header', good.subarray(good.indexOf(10) + 1), 'no header'],
    ] as const) {
      writeFileSync(path, bytes);
      const r = run(cache, args(file(), data()));
      expect(r.code, `${what}: ${r.err}`).toBe(0);
      expect(r.out, what).toBe(exact.out);
      expect(cacheNotes(r.err), what).toEqual([expect.stringContaining(says), expect.stringContaining('validated and kept in')]);
      expect(readFileSync(path).equals(good), what).toBe(true);
    }
  });

  it('the data files changed under the same path: judged from the new files, never from the old DBs', () => {
    const copy = join(dir, 'data-copy');
    const domain = join(COMMIT, 'data/tau2/domains/mock');
    cpSync(join(data(), domain), join(copy, domain), { recursive: true });
    const mock = join(TAU2_DIR, 'runs', MOCK);
    const cache = join(dir, 'changed');
    const before = run(cache, args(mock, copy));
    expect(before.code, before.err).toBe(0);
    // Files written just now get no stamp (a write within their times' granularity could leave one unchanged): no `.key` file.
    expect(keyFiles(cache)).toEqual([]);
    const dbFile = join(copy, domain, 'db.json');
    const mtime = statSync(dbFile).mtime;
    writeFileSync(dbFile, readFileSync(dbFile, 'utf8').replace('"Test task"', '"Test task, renamed"'));
    expectJudgedAfresh(cache, join(dir, 'unused'), args(mock, copy), before.out);
    expect(statSync(dbFile).mtime >= mtime).toBe(true);
    // Each content its own file: the old data's DBs are still there for whoever has those files.
    expect(cacheFiles(cache).filter((f) => f.startsWith('tau2-mock-'))).toHaveLength(2);
  });

  it('data files changed under the same path after their stamps were kept (same size, the old modification time put back): judged from the new files', async () => {
    const copy = join(dir, 'data-stamped');
    const domain = join(COMMIT, 'data/tau2/domains/mock');
    cpSync(join(data(), domain), join(copy, domain), { recursive: true });
    const dbFile = join(copy, domain, 'db.json');
    // A whole second, which `utimes` puts back exactly (to the nanosecond).
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    utimesSync(dbFile, hourAgo, hourAgo);
    // A stamp is kept only for a file that changed more than 2 s before it was read (its change time is the copy's).
    await new Promise((ok) => setTimeout(ok, 2100));
    const mock = join(TAU2_DIR, 'runs', MOCK);
    const cache = join(dir, 'stamped');
    const before = run(cache, args(mock, copy));
    expect(before.code, before.err).toBe(0);
    expect(keyFiles(cache)).toHaveLength(1);
    const warm = run(cache, args(mock, copy));
    expect(cacheNotes(warm.err)).toEqual([]);
    expect(warm.out).toBe(before.out);
    const { size, mtimeNs, ino } = statSync(dbFile, { bigint: true });
    writeFileSync(dbFile, readFileSync(dbFile, 'utf8').replace('"Test task"', '"Test TASK"'));
    utimesSync(dbFile, hourAgo, hourAgo);
    // The same place, inode, size and modification time: only the change time tells.
    const now = statSync(dbFile, { bigint: true });
    expect([now.size, now.mtimeNs, now.ino]).toEqual([size, mtimeNs, ino]);
    expectJudgedAfresh(cache, join(dir, 'unused'), args(mock, copy), before.out);
  });

  it('a damaged `.key` file, or one naming a missing cache file: passed over, the data files read and judged exactly', async () => {
    const copy = join(dir, 'data-keys');
    const domain = join(COMMIT, 'data/tau2/domains/mock');
    cpSync(join(data(), domain), join(copy, domain), { recursive: true });
    await new Promise((ok) => setTimeout(ok, 2100));
    const mock = join(TAU2_DIR, 'runs', MOCK);
    const exact = run(join(dir, 'unused'), args(mock, copy, '--no-cache'));
    const cache = join(dir, 'keys');
    run(cache, args(mock, copy));
    const keyPath = join(cache, 'tau-inspect', keyFiles(cache)[0]!);
    const good = readFileSync(keyPath);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 70]! ^= 0x01;
    for (const [what, bytes] of [
      ['one bit flipped', flipped],
      ['cut short', good.subarray(0, good.length >> 1)],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      writeFileSync(keyPath, bytes);
      const r = run(cache, args(mock, copy));
      expect(r.code, `${what}: ${r.err}`).toBe(0);
      expect(r.out, what).toBe(exact.out);
      // The cache file is whole: read by the data files' content, without a note, and the `.key` file written again.
      expect(cacheNotes(r.err), what).toEqual([]);
      expect(readFileSync(keyPath).equals(good), what).toBe(true);
    }
    rmSync(join(cache, 'tau-inspect', cacheFiles(cache)[0]!));
    const r = run(cache, args(mock, copy));
    expect(r.out).toBe(exact.out);
    expect(cacheNotes(r.err)).toEqual([expect.stringContaining('validated and kept in')]);
  });

  it('hashes of DB states kept for later processes: taken when whole, a damaged line passed over, the verdicts exact either way', () => {
    const exact = run(join(dir, 'unused'), args(file(), data(), '--no-cache'));
    const cache = join(dir, 'known');
    const first = run(cache, args(file(), data()));
    expect(first.out).toBe(exact.out);
    const known = readdirSync(join(cache, 'tau-inspect')).filter((f) => f.endsWith('.hashes'));
    expect(known).toEqual([expect.stringMatching(/^tau2-known-[0-9a-f]{32}\.hashes$/)]);
    const path = join(cache, 'tau-inspect', known[0]!);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^[0-9a-f]{64} [0-9a-f]{64} [0-9a-f]{16}$/);
    // Every hash wrong by one digit (its line's check no longer fits): none is taken.
    const wrong = lines.map((l) => `${l.slice(0, 65)}${l[65] === '0' ? '1' : '0'}${l.slice(66)}`);
    writeFileSync(path, `${wrong.join('\n')}\n`);
    const damaged = run(cache, args(file(), data()));
    expect(damaged.code, damaged.err).toBe(0);
    expect(damaged.out).toBe(exact.out);
    // The lines computed again are added after the damaged ones: the next run takes them.
    const warm = run(cache, args(file(), data()));
    expect(warm.out).toBe(exact.out);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBe(2 * lines.length);
  });

  it('a file written removes cache files unused for 30 days and temporary files left for an hour, and keeps the rest', () => {
    const cache = join(dir, 'pruned');
    const folder = join(cache, 'tau-inspect');
    mkdirSync(folder, { recursive: true });
    const day = 24 * 3600;
    const now = Date.now() / 1000;
    const made = (name: string, ageSeconds: number) => {
      writeFileSync(join(folder, name), 'x');
      utimesSync(join(folder, name), now - ageSeconds, now - ageSeconds);
    };
    made('tau2-airline-00000000000000000000000000000000.cache', 31 * day);
    made('tau2-retail-11111111111111111111111111111111.cache', 29 * day);
    made('tau2-airline-22.cache.123.abc.tmp', 2 * 3600);
    made('tau2-airline-33.cache.456.def.tmp', 60);
    made('notes.txt', 365 * day);
    const r = run(cache, args(join(TAU2_DIR, 'runs', MOCK), data()));
    expect(r.code, r.err).toBe(0);
    const files = cacheFiles(cache);
    expect(files.filter((f) => /^tau2-mock-[0-9a-f]{32}\.cache$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => !f.startsWith('tau2-mock-')).sort()).toEqual(
      ['notes.txt', 'tau2-airline-33.cache.456.def.tmp', 'tau2-retail-11111111111111111111111111111111.cache'].sort(),
    );
  });
});
