import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../support/cli-bundle';
import { DATA_DIR, itShared, SHARED_DIR } from '../support/shared';

const root = resolve(import.meta.dirname, '../..');

// The CLI as `npm run build:cli` ships it (bin/tau-inspect.mjs runs that bundle when it exists), bundled once
// per test run (test/support/cli-bundle.ts), so each run below starts plain node instead of compiling the sources with tsx.
let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: root, env: { ...process.env, TAU_BENCH_DATA: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const sampleRun = join(root, 'sample-runs/runs/retail-sample.json');
/** The first keys of an `evaluate --json` line, in order. */
const LINE_KEYS = [
  'index',
  'task_id',
  'trial',
  'recorded_reward',
  'domain',
  'strategy',
  'data_commit',
  'rule',
  'done',
  'done_by',
  'reward',
  'agent_hash',
  'gt_hash',
  'r_actions',
  'outputs',
  'diff_records',
  'steps',
];
const sampleData = join(root, 'sample-runs/data');

describe('tau-inspect CLI', () => {
  it('prints help and exits 0', () => {
    const r = cli('--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('tau-inspect evaluate RESULTS.json');
  });

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['evaluate'], /missing RESULTS.json/],
    [['evaluate', sampleRun, '--rule', 'strict'], /--rule must be/],
    [['evaluate', '/nonexistent/run.json', '--data', sampleData], /cannot read \/nonexistent\/run.json/],
  ])('rejects %j with a clear message and exit 2', (args, message) => {
    const r = cli(...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('says which file is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-cli-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[{"task_id": 1,');
    const r = cli('evaluate', bad, '--data', sampleData);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${bad}: not valid JSON`);
  });

  it('evaluates the sample run with --json: one object per episode, rewards as recorded', () => {
    const r = cli('evaluate', sampleRun, '--data', sampleData, '--json');
    expect(r.code, r.err).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) {
      // Every line starts with these keys in this order (a script may read the line by position; agent_hash is computed
      // when read, in place).
      expect(Object.keys(l).slice(0, LINE_KEYS.length), `episode ${String(l.index)}`).toEqual(LINE_KEYS);
      expect(l.reward).toBe(l.recorded_reward);
      expect(l.agent_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(r.err).toMatch(/^domain: retail/m);
  });

  it('prints a table and a summary line without --json', () => {
    const r = cli('evaluate', sampleRun, '--data', sampleData);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/episodes, \d+ evaluated/);
  });

  itShared('reports a run that crashed as an error line, not a failure', () => {
    const r = cli('evaluate', join(SHARED_DIR, 'runs/grok-4-fast-few-shot-airline.json'), '--data', DATA_DIR, '--json');
    expect(r.code).toBe(0);
    const errors = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error?: string })
      .filter((l) => l.error);
    expect(errors.length).toBe(1);
    expect(errors[0]!.error).toMatch(/crashed/);
  });

  describe('untrusted bytes and text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-cli-bytes-'));
    const plain = readFileSync(sampleRun);
    const episodes = JSON.parse(plain.toString('utf8')) as Record<string, unknown>[];
    const jsonOut = (file: string) => {
      const r = cli('evaluate', file, '--data', sampleData, '--json');
      expect(r.code, r.err).toBe(0);
      return r.out;
    };
    // After beforeAll has bundled the CLI (not at collection time).
    let referenceOut: string | null = null;
    const reference = (): string => (referenceOut ??= jsonOut(sampleRun));

    it.each([
      ['UTF-8 with a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain])],
      ['UTF-16 LE with a byte-order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(plain.toString('utf8'), 'utf16le')])],
      ['UTF-16 BE with a byte-order mark', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(plain.toString('utf8'), 'utf16le').swap16()])],
    ])('reads %s exactly like plain UTF-8', (name, bytes) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, bytes);
      expect(jsonOut(file)).toBe(reference());
    });

    it('never writes an escape sequence from the file to the terminal (OSC 52 clipboard write in info.error)', () => {
      const osc52 = '\x1b]52;c;cm0gLXJmIH4K\x07';
      const crashed = { task_id: 99, reward: 0, info: { error: `boom ${osc52} \x1b[2J`, traceback: 'x' }, traj: [], trial: 0 };
      const file = join(dir, 'osc52.json');
      writeFileSync(file, JSON.stringify([...episodes.slice(0, 2), crashed]));
      for (const args of [[], ['--json']]) {
        const r = cli('evaluate', file, '--data', sampleData, ...args);
        expect(r.code, r.err).toBe(0);
        expect(r.out + r.err).not.toMatch(/[\x1b\x07\x9b]/);
        expect(r.out).toContain(args.length ? '\\u001b]52;c;' : '\\x1b]52;c;');
      }
    });

    it('`tau-inspect evaluate … | head -1` ends quietly with status 0 (a real pipe)', () => {
      const file = join(dir, 'many.json');
      writeFileSync(file, JSON.stringify(Array.from({ length: 8 }, () => episodes).flat()));
      const entry = join(root, 'src/cli/tau-inspect.ts');
      const quote = (x: string): string => `'${x.replace(/'/g, `'\\''`)}'`;
      const r = spawnSync(
        'bash',
        ['-c', `set -o pipefail; ${quote(process.execPath)} --import tsx ${quote(entry)} evaluate ${quote(file)} --data ${quote(sampleData)} --json | head -1`],
        {
          encoding: 'utf8',
          cwd: root,
          env: { ...process.env, TAU_BENCH_DATA: '' },
        },
      );
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.status).toBe(0);
      expect(r.stdout.trim().split('\n').length).toBe(1);
      expect(JSON.parse(r.stdout)).toHaveProperty('index', 0);
    });

    it('a file damaged part-way: the complete episodes are judged, the damage is located', () => {
      const file = join(dir, 'truncated.json');
      const text = plain.toString('utf8');
      writeFileSync(file, text.slice(0, Math.floor(text.length * 0.6)));
      const r = cli('evaluate', file, '--data', sampleData);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/error: the file ends inside episode \d+ at line \d+ column \d+ \(char \d+, byte \d+\)/);
      expect(r.out).toMatch(/note: 1 of \d+ episodes could not be read as JSON/);
    });
  });

  itShared('names a τ²-bench results file instead of "cannot tell the domain"', () => {
    const r = cli('evaluate', join(SHARED_DIR, 'forks/tau2-airline-grok3mini.json'), '--data', DATA_DIR);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/a τ²-bench results file/);
  });

  it.each([
    ['[]', /no episodes: the file is an empty list/],
    ['[{}]', /no episodes: none of the file's 1 entries/],
  ])('%s says "no episodes"', (text, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'tau-cli-')), 'empty.json');
    writeFileSync(file, text);
    const r = cli('evaluate', file, '--data', sampleData);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
