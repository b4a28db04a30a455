/**
 * Held-back variants of issue #35 class 6 (`index` never stops on a name it cannot read), beyond
 * index-bad-names.spec.ts: other byte strings that are not UTF-8 — a lone continuation byte, an overlong encoding,
 * a surrogate encoded as UTF-8 (WTF-8), a name cut inside a character — each a bad file named with \xNN; a valid name
 * holding a line break, a tab and a bidi override is indexed like any file, its name kept exactly; a loop of
 * symbolic links is named, not followed forever. The good file beside them is always indexed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBundle, jsonLines } from '../support/cli-bundle';

const root = resolve(import.meta.dirname, '../..');
const sample = join(root, 'sample-runs/runs/tau2-mock-sample.json');
const data = `tau2=${join(root, 'sample-runs/tau2-data')}`;

let bundle = '';
let dir = '';
beforeAll(async () => {
  bundle = await cliBundle();
  dir = mkdtempSync(join(tmpdir(), 'index-bad-names-variants-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function index(runs: string): { code: number | null; err: string; rows: { file: string }[]; bad: { file: string; reason: string }[] } {
  const out = `${runs}.jsonl`;
  const r = spawnSync(process.execPath, [bundle, 'index', runs, '-o', out, '--json', '--data', data, '--jobs', '1'], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TAU_BENCH_DATA: '', TAU2_DATA: '' },
    timeout: 120_000,
  });
  const read = (p: string): string => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return '';
    }
  };
  const rows = read(out);
  const bad = read(out.replace(/\.jsonl$/, '.errors.jsonl'));
  return { code: r.status, err: r.stderr, rows: rows.trim() ? jsonLines(rows) : [], bad: bad.trim() ? jsonLines(bad) : [] };
}

/** How the index beside `runs` names a file in it: from the index's folder. */
const named = (runs: string, ...parts: string[]): string => relative(dirname(runs), join(runs, ...parts));

function runsFolder(name: string, make: (runs: string) => void): string {
  const runs = join(dir, name);
  mkdirSync(runs);
  copyFileSync(sample, join(runs, 'good.json'));
  make(runs);
  return runs;
}

describe('index: more names it cannot read, and names it can', () => {
  it.each([
    ['a lone continuation byte', [0x80], '\\x80'],
    ['an overlong slash', [0xc0, 0xaf], '\\xC0\\xAF'],
    ['a surrogate encoded as UTF-8', [0xed, 0xa0, 0x80], '\\xED\\xA0\\x80'],
    ['a character cut short', [0xe2, 0x82], '\\xE2\\x82'],
  ])('%s: a bad file named with \\xNN, the rest indexed', (_, bytes, shown) => {
    const runs = runsFolder(`bytes-${bytes.join('-')}`, (r) =>
      writeFileSync(Buffer.concat([Buffer.from(`${r}/n`), Buffer.from(bytes), Buffer.from('.json')]), readFileSync(sample)),
    );
    const r = index(runs);
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/ENOENT|EILSEQ/);
    expect(new Set(r.rows.map((x) => x.file))).toEqual(new Set([named(runs, 'good.json')]));
    expect(r.bad.map((b) => [b.file, b.reason])).toEqual([[named(runs, `n${shown}.json`), expect.stringMatching(/^the file name is not valid UTF-8 /)]]);
  });

  it('a valid name with a line break, a tab and a bidi override is indexed under its exact name', () => {
    const odd = 'line\nbreak\ttab\u202eflip.json';
    const runs = runsFolder('odd-valid', (r) => copyFileSync(sample, join(r, odd)));
    const r = index(runs);
    expect(r.code).toBe(0);
    expect(r.bad).toEqual([]);
    expect(new Set(r.rows.map((x) => x.file))).toEqual(new Set([named(runs, 'good.json'), named(runs, odd)]));
    // The progress and summary lines on stderr never print the raw line break or override.
    expect(r.err).not.toContain('\u202e');
    expect(r.err).not.toContain('line\nbreak');
  });

  it('a loop of symbolic links is a bad file, named, not followed forever', () => {
    const runs = runsFolder('loop', (r) => {
      symlinkSync(join(r, 'b.json'), join(r, 'a.json'));
      symlinkSync(join(r, 'a.json'), join(r, 'b.json'));
    });
    const r = index(runs);
    expect(r.code).toBe(0);
    expect(r.rows).toHaveLength(9);
    expect(r.bad.map((b) => [b.file, b.reason])).toEqual([
      [named(runs, 'a.json'), `a symbolic link to ${join(runs, 'b.json')} in a loop of links that leads back to itself, never to a file`],
      [named(runs, 'b.json'), `a symbolic link to ${join(runs, 'a.json')} in a loop of links that leads back to itself, never to a file`],
    ]);
  });
});
