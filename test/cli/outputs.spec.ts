import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../support/cli-bundle';
import { describeTau2, TAU2_DIR } from '../support/shared';

const root = resolve(import.meta.dirname, '../..');
const sampleRun = join(root, 'sample-runs/runs/retail-sample.json');
const sampleData = join(root, 'sample-runs/data');
const quote = (x: string): string => `'${x.replace(/'/g, `'\\''`)}'`;

// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts), so each run is plain node.
let bundle = '';
let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tau-outputs-'));
  bundle = await cliBundle();
  return () => rmSync(dir, { recursive: true, force: true });
});

const cli = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd, env: { ...process.env, TAU_BENCH_DATA: '', TAU2_DATA: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
/** A shell pipeline `tau-inspect ARGS | TAIL` with pipefail: the CLI's own status counts. */
const piped = (args: string[], tail: string) =>
  spawnSync('bash', ['-c', `set -o pipefail; ${quote(process.execPath)} ${quote(bundle)} ${args.map(quote).join(' ')} | ${tail}`], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, TAU_BENCH_DATA: '' },
  });

const fresh = (): { d: string; run: string } => {
  const d = mkdtempSync(join(dir, 'case-'));
  const run = join(d, 'run.json');
  copyFileSync(sampleRun, run);
  return { d, run };
};

describe('report -o never clobbers an input', () => {
  it('refuses -o naming the results file itself: exit 2, the file unchanged', () => {
    const { run } = fresh();
    const before = readFileSync(run);
    const r = cli(dir, 'report', run, '--data', sampleData, '-o', run);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refusing to write .*run\.json: it is the results file/);
    expect(readFileSync(run).equals(before)).toBe(true);
  });

  it('refuses the same file under another name: a relative path, a symlink, a hard link', () => {
    const { d, run } = fresh();
    const before = readFileSync(run);
    symlinkSync(run, join(d, 'link.html'));
    linkSync(run, join(d, 'hard.html'));
    for (const out of ['./run.json', join(d, 'link.html'), join(d, 'hard.html'), join(d, '..', 'case-x', '..', d.split('/').pop()!, 'run.json')]) {
      const r = cli(d, 'report', run, '--data', sampleData, '-o', out);
      expect(r.code, out).toBe(2);
      expect(r.err).toContain('it is the results file');
    }
    expect(readFileSync(run).equals(before)).toBe(true);
  });

  it('refuses the notes file, and a .json file inside the data folder it reads', () => {
    const { d, run } = fresh();
    const notes = join(d, 'notes.json');
    writeFileSync(notes, '{"format": "tau-inspect-notes/1", "episodes": []}');
    const r = cli(d, 'report', run, '--data', sampleData, '--notes', notes, '-o', notes);
    expect(r.code).toBe(2);
    expect(r.err).toContain('it is the notes file');
    const data = join(d, 'data');
    cpSync(sampleData, data, { recursive: true });
    const inData = join(data, 'new.json');
    const r2 = cli(d, 'report', run, '--data', data, '-o', inData);
    expect(r2.code).toBe(2);
    expect(r2.err).toContain('inside the data folder');
    expect(existsSync(inData)).toBe(false);
  });

  it('writes through a temporary file and a rename: a new inode, the mode kept, no temporary file left', () => {
    const { d, run } = fresh();
    const out = join(d, 'report.html');
    writeFileSync(out, 'old report', { mode: 0o640 });
    const before = statSync(out);
    const r = cli(d, 'report', run, '--data', sampleData, '-o', out);
    expect(r.code, r.err).toBe(0);
    const after = statSync(out);
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o640);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readdirSync(d).sort()).toEqual(['report.html', 'run.json']);
  });
});

describe('-o names a file that can be written (red team)', () => {
  it('refuses a name ending in / and a missing folder, before reading, naming the path given (not a temporary file)', () => {
    const { d, run } = fresh();
    const slash = cli(d, 'report', run, '--data', sampleData, '-o', 'newdir/');
    expect(slash.code).toBe(2);
    expect(slash.err).toContain('cannot write newdir/: it names a folder');
    const missing = cli(d, 'report', run, '--data', sampleData, '-o', 'nodir/x.html');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot write nodir/x.html: the folder nodir does not exist');
    expect(missing.err).not.toContain('.tmp');
    expect(readdirSync(d).sort()).toEqual(['run.json']);
  });
});

describeTau2('report -o never replaces a τ² data file (red team)', () => {
  it('refuses the telecom DB (.toml) inside the τ² data folder, which the report had replaced by HTML', () => {
    const { d } = fresh();
    const data = join(d, 'tau2-data');
    cpSync(join(TAU2_DIR, 'data'), data, { recursive: true });
    const run = join(TAU2_DIR, 'runs', 'sierra-research__gym-gpt-4.1-telecom-solo-1task.json');
    const [toml] = readdirSync(data).map((c) => join(data, c, 'data', 'tau2', 'domains', 'telecom', 'db.toml'));
    const before = readFileSync(toml!);
    const r = cli(d, 'report', run, '--data', data, '-o', toml!);
    expect(r.code).toBe(2);
    expect(r.err).toContain('it is a .toml file inside the data folder');
    expect(readFileSync(toml!).equals(before)).toBe(true);
  });
});

describe('report --notes keeps the import limits of the app (red team)', () => {
  it('refuses a notes file past the size limit without reading it', () => {
    const { d, run } = fresh();
    const notes = join(d, 'notes.json');
    writeFileSync(notes, '');
    truncateSync(notes, 65 * 1024 * 1024);
    const r = cli(d, 'report', run, '--data', sampleData, '--notes', notes, '-o', '-');
    expect(r.code).toBe(2);
    expect(r.err).toContain('notes.json: this file is too big to be a notes export: 65 MB, and a notes export may be at most 64 MB');
  });
});

describe('report -o through a symlink (red team)', () => {
  it('a link to a file not made yet: the report is written where it points, the link kept (it was replaced by a file)', () => {
    const { d, run } = fresh();
    mkdirSync(join(d, 'reports'));
    symlinkSync(join('reports', 'r.html'), join(d, 'latest.html'));
    const r = cli(d, 'report', run, '--data', sampleData, '-o', 'latest.html');
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(join(d, 'latest.html')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'reports', 'r.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readdirSync(join(d, 'reports'))).toEqual(['r.html']);
  });
});

describe('index: its two outputs are never one file (red team)', () => {
  const indexCase = () => {
    const { d, run } = fresh();
    const runs = join(d, 'runs');
    mkdirSync(runs);
    renameSync(run, join(runs, 'run.json'));
    writeFileSync(join(runs, 'bad.json'), '{bad');
    return { d, runs };
  };

  it('refuses --errors naming the -o file (the same name, ./name, a hard link): exit 2, the earlier index kept', () => {
    const { d, runs } = indexCase();
    const first = cli(d, 'index', runs, '--data', sampleData, '--json', '-o', 'runs.jsonl', '--errors', 'bad.jsonl');
    expect(first.code, first.err).toBe(0);
    const before = readFileSync(join(d, 'runs.jsonl'));
    expect(before.toString().trim().split('\n')).toHaveLength(14);
    linkSync(join(d, 'runs.jsonl'), join(d, 'hard.jsonl'));
    for (const errors of ['runs.jsonl', './runs.jsonl', join(d, 'hard.jsonl')]) {
      const r = cli(d, 'index', runs, '--data', sampleData, '--json', '-o', 'runs.jsonl', '--errors', errors);
      expect(r.code, errors).toBe(2);
      expect(r.err).toContain('as the bad-file list (--errors): it is also the index (-o)');
      expect(readFileSync(join(d, 'runs.jsonl')).equals(before), errors).toBe(true);
    }
  });

  it('refuses --errors naming a new -o Parquet file: no file written', () => {
    const { d, runs } = indexCase();
    const r = cli(d, 'index', runs, '--data', sampleData, '-o', 'runs.parquet', '--errors', 'runs.parquet');
    expect(r.code).toBe(2);
    expect(readdirSync(d).sort()).toEqual(['runs']);
  });

  it('still makes a missing folder for its outputs', () => {
    const { d, runs } = indexCase();
    const r = cli(d, 'index', runs, '--data', sampleData, '--json', '-o', 'sub/runs.jsonl');
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(join(d, 'sub')).sort()).toEqual(['runs.errors.jsonl', 'runs.jsonl']);
  });
});

describe('report -o - and closed pipes', () => {
  it('-o - writes the report to standard output and no file named -', () => {
    const { d, run } = fresh();
    const r = cli(d, 'report', run, '--data', sampleData, '-o', '-');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^<!doctype html>/i);
    expect(r.out).toContain('data-testid="report-episode"');
    expect(r.err).toContain('wrote the report to standard output');
    expect(existsSync(join(d, '-'))).toBe(false);
  });

  it.each([['-'], ['/dev/stdout']])('report -o %s | head -c 100: quiet, status 0', (out) => {
    const { d } = fresh();
    // Eight times the sample (about 1 MB of HTML): far more than a pipe holds, so the reader leaves first.
    const run = join(d, 'many.json');
    writeFileSync(run, JSON.stringify(Array.from({ length: 8 }, () => JSON.parse(readFileSync(sampleRun, 'utf8')) as unknown[]).flat()));
    const r = piped(['report', run, '--data', sampleData, '-o', out], 'head -c 100');
    expect(r.stderr).not.toMatch(/usage|EPIPE|Error|at /);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>/i);
  });
});

describe('--json is inert and exact', () => {
  const HOSTILE = 'X\u009b31mY\u202eZ\u2066W\u061c\u200e\u200f\u0085\u007f\u001b]52;c;';
  const RAW = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it.each([
    ['evaluate', ['--json']],
    ['explain', ['--json', '--episode', '0']],
  ])('%s --json: C1 and bidi controls escaped, the text exact after JSON.parse', (command, extra) => {
    const { d } = fresh();
    const episodes = JSON.parse(readFileSync(sampleRun, 'utf8')) as { traj: { role: string; content: string | null }[] }[];
    for (const ep of episodes) for (const m of ep.traj) if (m.role === 'user') m.content = `${HOSTILE} ${m.content ?? ''}`;
    const file = join(d, 'hostile.json');
    writeFileSync(file, JSON.stringify(episodes));
    const r = cli(d, command, file, '--data', sampleData, ...extra);
    expect(r.code, r.err).toBe(0);
    expect(r.out.replace(/\n/g, '')).not.toMatch(RAW);
    expect(r.out).toContain('X\\u009b31mY\\u202eZ\\u2066W\\u061c\\u200e\\u200f\\u0085\\u007f\\u001b]52;c;');
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
    };
    for (const line of r.out.trim().split('\n')) walk(JSON.parse(line));
    expect(strings.some((s) => s.includes(HOSTILE))).toBe(true);
  });
});
