import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, itShared, SHARED_DIR } from '../support/shared';

const root = resolve(import.meta.dirname, '../..');

// The CLI as `npm run build:cli` ships it (bin/tau-inspect.mjs runs that bundle when it exists):
// bundled once here, so each run below starts plain node instead of compiling the sources with tsx.
let bundle = '';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tau-cli-bundle-'));
  bundle = join(dir, 'tau-inspect.mjs');
  await build({ entryPoints: [join(root, 'src/cli/tau-inspect.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
  return () => rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: root, env: { ...process.env, TAU_BENCH_DATA: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const sampleRun = join(root, 'sample-runs/runs/retail-sample.json');
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
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) {
      for (const k of ['index', 'task_id', 'trial', 'domain', 'strategy', 'data_commit', 'done', 'reward', 'recorded_reward', 'agent_hash', 'gt_hash', 'r_actions', 'outputs', 'diff_records', 'steps'])
        expect(l, `episode ${String(l.index)} lacks ${k}`).toHaveProperty(k);
      expect(l.reward).toBe(l.recorded_reward);
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
    const errors = r.out.trim().split('\n').map((l) => JSON.parse(l) as { error?: string }).filter((l) => l.error);
    expect(errors.length).toBe(1);
    expect(errors[0]!.error).toMatch(/crashed/);
  });
});
