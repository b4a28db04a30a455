/**
 * The built CLI's code cache (src/cli/code-cache/loader.ts): a process writes the code V8 compiled to the cache
 * folder and the next one compiles from it; a cache file damaged, cut short, made for another build or refused by V8
 * is passed over silently (the same output) and written again; `--no-cache` neither reads nor writes it; old ones are
 * pruned with the DB cache's. Each spec has a cache folder ($XDG_CACHE_HOME) of its own.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { cacheFileBytes, cachedCode } from '../../src/cli/code-cache/loader';
import { cliBundle } from '../support/cli-bundle';
import { describeTau2, TAU2_DIR } from '../support/shared';

const MOCK = 'sierra-research__pr170-e2e-mock-baseline.json';

let dir = '';
let bundle = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tau-code-cache-'));
  bundle = await cliBundle();
  return () => rmSync(dir, { recursive: true, force: true });
});

const run = (entry: string, cache: string, ...more: string[]) => {
  const a = [entry, 'evaluate', join(TAU2_DIR, 'runs', MOCK), '--data', join(TAU2_DIR, 'data'), '--json', ...more];
  const r = spawnSync(process.execPath, a, { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, XDG_CACHE_HOME: cache } });
  expect(r.status, r.stderr).toBe(0);
  return { out: r.stdout, err: r.stderr };
};
const codeFiles = (cache: string) =>
  existsSync(join(cache, 'tau-inspect')) ? readdirSync(join(cache, 'tau-inspect')).filter((f) => f.startsWith('cli-code-')) : [];
const bodyHash = (entry: string) =>
  createHash('sha256')
    .update(readFileSync(entry.replace(/\.mjs$/, '.body.cjs')))
    .digest('hex');

describeTau2('the code cache of the built CLI', () => {
  it('the first process writes it, the next compiles from it (leaving it as it is) and prints the same', () => {
    const exact = run(bundle, join(dir, 'none'), '--no-cache');
    expect(codeFiles(join(dir, 'none'))).toEqual([]);
    const cache = join(dir, 'warm');
    const cold = run(bundle, cache);
    expect(cold.out).toBe(exact.out);
    expect(codeFiles(cache)).toEqual([expect.stringMatching(/^cli-code-[0-9a-f]{32}\.v8$/)]);
    const path = join(cache, 'tau-inspect', codeFiles(cache)[0]!);
    const written = readFileSync(path);
    expect(cachedCode(written, bodyHash(bundle))?.length).toBeGreaterThan(1000);
    const old = Date.now() / 1000 - 600;
    utimesSync(path, old, old);
    const warm = run(bundle, cache);
    expect(warm.out).toBe(exact.out);
    expect(warm.err).toBe(
      cold.err
        .split('\n')
        .filter((l) => !l.startsWith('note: τ² DB cache:'))
        .join('\n'),
    );
    // Taken, not written again: a refused file would have been replaced.
    expect(readFileSync(path).equals(written)).toBe(true);
    expect(Math.round(statSync(path).mtimeMs / 1000)).toBe(Math.round(old));
  });

  it('a cache file damaged, cut short, without its header or refused by V8: the same output, and written again', () => {
    const cache = join(dir, 'damaged');
    const exact = run(bundle, cache);
    const path = join(cache, 'tau-inspect', codeFiles(cache)[0]!);
    const good = readFileSync(path);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 100]! ^= 0x10;
    for (const [what, bytes] of [
      ['one bit flipped', flipped],
      ['cut short', good.subarray(0, good.length >> 1)],
      ['no header', good.subarray(good.indexOf(10) + 1)],
      ['garbage under a right header (V8 refuses it)', cacheFileBytes(bodyHash(bundle), randomBytes(good.length >> 2))],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      writeFileSync(path, bytes);
      const r = run(bundle, cache);
      expect(r.out, what).toBe(exact.out);
      expect(r.err, what).toBe(
        exact.err
          .split('\n')
          .filter((l) => !l.startsWith('note: τ² DB cache:'))
          .join('\n'),
      );
      // Written again, whole: V8's data of this process, not the bytes put there.
      expect(cachedCode(readFileSync(path), bodyHash(bundle)), what).not.toBeNull();
      expect(readFileSync(path).equals(bytes), what).toBe(false);
    }
    expect(codeFiles(cache)).toHaveLength(1);
  });

  it("another build's cache file in this build's place is passed over and replaced", () => {
    const other = join(dir, 'other-build', 'tau-inspect.mjs');
    mkdirSync(dirname(other), { recursive: true });
    cpSync(bundle, other);
    cpSync(bundle.replace(/\.mjs$/, '.body.cjs'), other.replace(/\.mjs$/, '.body.cjs'));
    appendFileSync(other.replace(/\.mjs$/, '.body.cjs'), '\n// another build\n');
    const cacheA = join(dir, 'build-a');
    const cacheB = join(dir, 'build-b');
    const a = run(bundle, cacheA);
    const b = run(other, cacheB);
    expect(b.out).toBe(a.out);
    // Each build its own file; A's file put where B looks is not B's (its header names A's body) and B writes its own.
    expect(codeFiles(cacheB)).toHaveLength(1);
    expect(codeFiles(cacheB)[0]).not.toBe(codeFiles(cacheA)[0]);
    const pathB = join(cacheB, 'tau-inspect', codeFiles(cacheB)[0]!);
    const aBytes = readFileSync(join(cacheA, 'tau-inspect', codeFiles(cacheA)[0]!));
    expect(cachedCode(aBytes, bodyHash(other))).toBeNull();
    writeFileSync(pathB, aBytes);
    expect(run(other, cacheB).out).toBe(a.out);
    expect(cachedCode(readFileSync(pathB), bodyHash(other))).not.toBeNull();
    expect(readFileSync(pathB).equals(aBytes)).toBe(false);
  });

  it('--no-cache reads and writes none; a code cache file unused for 30 days is pruned', () => {
    const cache = join(dir, 'pruned');
    const folder = join(cache, 'tau-inspect');
    mkdirSync(folder, { recursive: true });
    const stale = 'cli-code-00000000000000000000000000000000.v8';
    writeFileSync(join(folder, stale), 'x');
    const old = Date.now() / 1000 - 31 * 24 * 3600;
    utimesSync(join(folder, stale), old, old);
    run(bundle, cache, '--no-cache');
    expect(codeFiles(cache)).toEqual([stale]);
    run(bundle, cache);
    expect(codeFiles(cache)).toHaveLength(1);
    expect(codeFiles(cache)[0]).not.toBe(stale);
  });
});

it("index through a warm code cache: the body's import() of DuckDB (for Parquet) and the worker threads still work", () => {
  const root = join(import.meta.dirname, '../..');
  // The bundle where it finds the DuckDB package (as dist/cli does): a folder under the checkout's node_modules.
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const home = mkdtempSync(join(root, 'node_modules', '.cache', 'code-cache-spec-'));
  try {
    const entry = join(home, 'tau-inspect.mjs');
    cpSync(bundle, entry);
    cpSync(bundle.replace(/\.mjs$/, '.body.cjs'), entry.replace(/\.mjs$/, '.body.cjs'));
    const cache = join(dir, 'index');
    const sample = (...p: string[]) => join(root, 'sample-runs', ...p);
    const outs = [1, 2].map((n) => {
      const target = join(dir, `index-${n}.parquet`);
      const a = [entry, 'index', sample('runs'), '--data', sample('data'), '--data', sample('tau2-data'), '--jobs', '2', '-o', target];
      const r = spawnSync(process.execPath, a, { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cache } });
      expect(r.status, r.stderr).toBe(0);
      expect(codeFiles(cache)).toHaveLength(1);
      return /indexed (\d+) files \((\d+) episodes\)/.exec(r.stderr)?.slice(1);
    });
    expect(outs[0]).toEqual(['3', '27']);
    expect(outs[1]).toEqual(outs[0]);
    expect(statSync(join(dir, 'index-2.parquet')).size).toBeGreaterThan(0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
