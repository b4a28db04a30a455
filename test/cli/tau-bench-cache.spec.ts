/**
 * The CLI's cache of τ-bench's data work (src/cli/tau-bench-cache.ts) is safe: a later process takes it over (no DB
 * printed, no reference replay made to learn a hash), two processes filling it at once, a file damaged, cut short or
 * holding something else, a snapshot that does not fit the DB, the data files changed under the same path — each run
 * judges exactly as `--no-cache` does, and a fallback says so on standard error. On the invented sample data (no
 * ../shared needed). Each spec has a cache folder ($XDG_CACHE_HOME) of its own.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { keepDataWork, tauBenchData } from '../../src/cli/tau-bench-cache';
import { InspectSession, prepareSha256 } from '../../src/core/contract';
import { runWithCache, runWithCacheAsync } from '../support/cache-run';
import { cliBundle } from '../support/cli-bundle';
import { ROOT } from '../support/fixtures';

const SAMPLE = join(ROOT, 'sample-runs', 'runs', 'retail-sample.json');
const DATA = join(ROOT, 'sample-runs', 'data');

let dir = '';
let bundle = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tau-bench-cache-'));
  bundle = await cliBundle();
  return () => rmSync(dir, { recursive: true, force: true });
});

const args = (data: string, ...more: string[]) => [bundle, 'evaluate', SAMPLE, '--data', data, '--json', ...more];
const run = runWithCache;
const runAsync = runWithCacheAsync;
const cacheNotes = (err: string) => err.split('\n').filter((l) => l.startsWith('note: τ-bench data cache:'));
/** Every file of the folder that is not the compiled code's (`cli-code-*`, code-cache.spec's). */
const cacheFiles = (cache: string) =>
  existsSync(join(cache, 'tau-inspect')) ? readdirSync(join(cache, 'tau-inspect')).filter((f) => !f.startsWith('cli-code-')) : [];
const exactOut = (data = DATA) => {
  const r = run(join(dir, 'unused'), args(data, '--no-cache'));
  expect(r.code, r.err).toBe(0);
  expect(cacheNotes(r.err)).toEqual([]);
  return r.out;
};

describe('the τ-bench data cache', () => {
  it('a later session takes the work over: the same verdicts, and nothing written again when nothing new was learnt', async () => {
    await prepareSha256();
    const folder = join(dir, 'in-process');
    const text = readFileSync(SAMPLE);
    const open = async () => {
      const session = InspectSession.fromBytes(text, {});
      const d = tauBenchData(DATA, folder);
      const versions = await session.loadData(d.read, DATA);
      await d.restore(session, versions);
      session.useData(versions);
      session.settleData();
      return session;
    };
    const rows = (s: InspectSession) => s.evaluateAll().map((e) => [e.reward, e.agent_hash, e.gt_hash, e.data_commit]);
    const cold = await open();
    const coldRows = rows(cold);
    await keepDataWork();
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/^tau-bench-retail-[0-9a-f]{32}\.cache$/)]);
    const path = join(folder, readdirSync(folder)[0]!);
    const bytes = readFileSync(path);
    const warm = await open();
    expect(warm.knownGroundTruths()).toBe(cold.knownGroundTruths());
    expect(rows(warm)).toEqual(coldRows);
    await keepDataWork();
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('what a later process takes over is the file’s (a reference-replay hash put in it, vouched for by its header, is the one printed)', () => {
    const cache = join(dir, 'taken');
    const first = run(cache, args(DATA));
    expect(first.code, first.err).toBe(0);
    const path = join(cache, 'tau-inspect', cacheFiles(cache)[0]!);
    const good = readFileSync(path);
    const nl = good.indexOf(10) + 1;
    const snapshot = deserialize(Buffer.from(good.subarray(nl))) as { work: { gtHashes: Map<string, string> } };
    expect(snapshot.work.gtHashes.size).toBeGreaterThan(0);
    const planted = 'f'.repeat(64);
    for (const k of snapshot.work.gtHashes.keys()) snapshot.work.gtHashes.set(k, planted);
    const body = serialize(snapshot);
    const head = good.subarray(0, nl).toString().split(' ').slice(0, -2).join(' ');
    writeFileSync(path, Buffer.concat([Buffer.from(`${head} ${createHash('sha256').update(body).digest('hex')} ${body.length}\n`), body]));
    const warm = run(cache, args(DATA));
    const gt = warm.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { gt_hash: string | null }).gt_hash);
    expect(gt.filter((h) => h !== null).length).toBeGreaterThan(0);
    expect(gt.filter((h) => h !== null).every((h) => h === planted)).toBe(true);
    const exact = run(cache, args(DATA, '--no-cache'));
    expect(exact.out).not.toContain(planted);
  });

  it('through the CLI: written once, read by the next run (its time refreshed), the lines exact, no note', () => {
    const exact = exactOut();
    const cache = join(dir, 'cli');
    const first = run(cache, args(DATA));
    expect(first.code, first.err).toBe(0);
    expect(first.out).toBe(exact);
    expect(cacheNotes(first.err)).toEqual([]);
    const files = cacheFiles(cache);
    expect(files).toEqual([expect.stringMatching(/^tau-bench-retail-[0-9a-f]{32}\.cache$/)]);
    const path = join(cache, 'tau-inspect', files[0]!);
    const bytes = readFileSync(path);
    const old = Date.now() / 1000 - 3600;
    utimesSync(path, old, old);
    const warm = run(cache, args(DATA));
    expect(warm.code, warm.err).toBe(0);
    expect(warm.out).toBe(exact);
    expect(cacheNotes(warm.err)).toEqual([]);
    expect(statSync(path).mtimeMs / 1000).toBeGreaterThan(old + 60);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    // `--no-cache` neither reads nor writes it.
    utimesSync(path, old, old);
    const off = run(cache, args(DATA, '--no-cache'));
    expect(off.out).toBe(exact);
    expect(Math.round(statSync(path).mtimeMs / 1000)).toBe(Math.round(old));
  });

  it('two processes filling it at once: both judge exactly, one whole file is left, the next run reads it without a note', async () => {
    const exact = exactOut();
    const cache = join(dir, 'both');
    const [a, b] = await Promise.all([runAsync(cache, args(DATA)), runAsync(cache, args(DATA))]);
    for (const r of [a, b]) {
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(exact);
    }
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^tau-bench-retail-[0-9a-f]{32}\.cache$/)]);
    const warm = run(cache, args(DATA));
    expect(warm.out).toBe(exact);
    expect(cacheNotes(warm.err)).toEqual([]);
  });

  it('a file damaged, cut short, grown, of another kind, or whose snapshot does not fit the DB: noted, judged exactly, written again', () => {
    const exact = exactOut();
    const cache = join(dir, 'damaged');
    expect(run(cache, args(DATA)).code).toBe(0);
    const path = join(cache, 'tau-inspect', cacheFiles(cache)[0]!);
    const good = readFileSync(path);
    const nl = good.indexOf(10) + 1;
    const header = good.subarray(0, nl).toString();
    const flipped = (at: number) => {
      const b = Buffer.from(good);
      b[at]! ^= 0x04;
      return b;
    };
    /** A body the header vouches for (its checksum and length right). */
    const vouched = (body: Uint8Array) =>
      Buffer.concat([Buffer.from(`${header.split(' ').slice(0, -2).join(' ')} ${createHash('sha256').update(body).digest('hex')} ${body.length}\n`), body]);
    // A copy: node:v8 hands typed arrays back as views of the bytes it read.
    const snapshot = deserialize(Buffer.from(good.subarray(nl))) as { work: { hasher: { bytes: Uint8Array } } };
    // One record's text changed, its length kept: the tables and keys fit, the texts do not give the base hash.
    const texts = snapshot.work.hasher.bytes;
    texts[texts.length - 3] = texts[texts.length - 3] === 0x31 ? 0x32 : 0x31;
    for (const [what, bytes, says] of [
      ['one bit flipped in the body', flipped(good.length - 100), 'its checksum differs'],
      ['cut short', good.subarray(0, good.length >> 1), 'cut short'],
      ['bytes added after it', Buffer.concat([good, Buffer.from('garbage')]), 'bytes added after it'],
      ['no header', good.subarray(nl), 'no header'],
      ['a body that is not a snapshot', vouched(serialize({ something: 'else' })), 'no snapshot'],
      ['a body that is no serialization', vouched(new TextEncoder().encode('plain text')), 'cannot be decoded'],
      ['texts that do not give the base hash', vouched(serialize(snapshot)), 'does not fit'],
    ] as const) {
      writeFileSync(path, bytes);
      const r = run(cache, args(DATA));
      expect(r.code, `${what}: ${r.err}`).toBe(0);
      expect(r.out, what).toBe(exact);
      expect(cacheNotes(r.err), what).toEqual([expect.stringContaining(says)]);
      expect(readFileSync(path).equals(good), what).toBe(true);
    }
  });

  it('the data files changed under the same path: judged from the new files, the old work kept apart', () => {
    const copy = join(dir, 'data-copy');
    cpSync(DATA, copy, { recursive: true });
    const cache = join(dir, 'changed');
    const before = run(cache, args(copy));
    expect(before.code, before.err).toBe(0);
    expect(before.out).toBe(exactOut());
    const users = join(copy, 'tau_bench/envs/retail/data/users.json');
    const text = readFileSync(users, 'utf8');
    const changed = text.replace(/"first_name": "([A-Z])/, '"first_name": "Re$1');
    expect(changed).not.toBe(text);
    writeFileSync(users, changed);
    const after = run(cache, args(copy));
    expect(after.code, after.err).toBe(0);
    expect(after.out).toBe(exactOut(copy));
    expect(after.out).not.toBe(before.out);
    expect(cacheNotes(after.err)).toEqual([]);
    expect(cacheFiles(cache).filter((f) => f.startsWith('tau-bench-retail-'))).toHaveLength(2);
  });

  it('a cache folder that cannot be made ($XDG_CACHE_HOME a file): judged exactly, exit 0, a note, no stack trace (the code cache too)', () => {
    const exact = exactOut();
    const home = join(dir, 'home-is-a-file');
    writeFileSync(home, 'not a folder');
    for (let i = 0; i < 2; i++) {
      const r = run(home, args(DATA));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(exact);
      expect(cacheNotes(r.err)).toEqual([expect.stringContaining('cannot be read (ENOTDIR')]);
      expect(r.err).not.toMatch(/^\s+at |node:fs|^Error/m);
    }
  });
});
