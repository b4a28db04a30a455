/**
 * The CLI's cache of validated τ² DBs (src/cli/tau2-db-cache.ts) is safe: two processes filling it at once, a cache
 * file damaged or cut short, the data files changed under the same path — each run judges exactly as `--no-cache`
 * does, and a fallback says so on standard error; old files are pruned. Each spec has a cache folder ($XDG_CACHE_HOME) of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
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
const run = (cache: string, a: string[]) => {
  const r = spawnSync(process.execPath, a, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, XDG_CACHE_HOME: cache } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const runAsync = (cache: string, a: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((ok) => {
    const child = spawn(process.execPath, a, { env: { ...process.env, XDG_CACHE_HOME: cache } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => ok({ code, out, err }));
  });
const cacheNotes = (err: string) => err.split('\n').filter((l) => l.startsWith('note: τ² DB cache:'));
// The DB cache's files (the compiled code's, `cli-code-*`, beside them are code-cache.spec's).
const cacheFiles = (cache: string) => readdirSync(join(cache, 'tau-inspect')).filter((f) => !f.startsWith('cli-code-'));

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
    const dbFile = join(copy, domain, 'db.json');
    const mtime = statSync(dbFile).mtime;
    writeFileSync(dbFile, readFileSync(dbFile, 'utf8').replace('"Test task"', '"Test task, renamed"'));
    const after = run(cache, args(mock, copy));
    const exact = run(join(dir, 'unused'), args(mock, copy, '--no-cache'));
    expect(after.code, after.err).toBe(0);
    expect(after.out).toBe(exact.out);
    expect(after.out).not.toBe(before.out);
    expect(cacheNotes(after.err)).toEqual([expect.stringContaining('validated and kept in')]);
    expect(statSync(dbFile).mtime >= mtime).toBe(true);
    // Each content its own file: the old data's DBs are still there for whoever has those files.
    expect(cacheFiles(cache).filter((f) => f.startsWith('tau2-mock-'))).toHaveLength(2);
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
