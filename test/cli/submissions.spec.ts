/**
 * `tau-inspect submissions` over the invented sample submissions (sample-runs/submissions): per entry and domain the
 * claimed pass^k beside the recomputed and recorded ones, the higher claim flagged, the missing trajectory file listed,
 * the malformed submission.json named field by field; an entry whose submission.json is not JSON at all stops nothing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SUBS = join(ROOT, 'sample-runs/submissions');
const DATA = join(ROOT, 'sample-runs/tau2-data');
const cache = mkdtempSync(join(tmpdir(), 'tau-inspect-subs-cache-'));

function cli(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(
    process.execPath,
    ['--import', join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), join(ROOT, 'src/cli/tau-inspect.ts'), 'submissions', ...args],
    { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, XDG_CACHE_HOME: cache } },
  );
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Json {
  submissions: {
    entry: string;
    errors: string[];
    flagged: number;
    missing_files: string[];
    domains: {
      domain: string;
      missing: boolean;
      pass_k: { k: number; claimed: number | null; recomputed: number | null; recorded: number | null; flag: string | null }[];
    }[];
  }[];
}

describe('tau-inspect submissions', () => {
  it('--json: claims beside recomputed pass^k per entry and domain, flags, missing files, field errors', () => {
    const r = cli(SUBS, '--data', DATA, '--jobs', '1', '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as Json;
    expect(j.submissions.map((s) => [s.entry, s.flagged, s.missing_files, s.errors.length])).toEqual([
      ['invented-model-a_example-lab_2026-11-30', 0, [], 0],
      ['invented-model-b_other-lab_2026-12-01', 1, ['telecom.json'], 0],
      ['invented-model-c_broken-lab_2026-12-02', 0, [], 2],
    ]);
    expect(j.submissions[1]!.domains[0]!.pass_k[0]).toEqual({ k: 1, claimed: 62.5, recomputed: 25, recorded: 25, flag: 'higher' });
    expect(j.submissions[1]!.domains[1]).toMatchObject({ domain: 'telecom', missing: true });
    expect(j.submissions[2]!.errors[1]).toBe('results.retail.pass_1: should be a percentage from 0 to 100, not "high"');
  });

  it('as text; an entry whose submission.json is not JSON is named and the others are still judged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-inspect-subs-'));
    cpSync(join(SUBS, 'invented-model-b_other-lab_2026-12-01'), join(dir, 'b'), { recursive: true });
    cpSync(join(SUBS, 'invented-model-a_example-lab_2026-11-30'), join(dir, 'a'), { recursive: true });
    writeFileSync(join(dir, 'a', 'submission.json'), '{"model_name": "A", "results": ');
    const r = cli(dir, '--data', DATA, '--jobs', '1');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('a: (no model_name)\n  submission.json: submission.json is not JSON: Expecting value: line 1 column 32 (char 31)\n');
    // With no trajectory_files read, the file is matched to its domain by its simulations, and still judged.
    expect(r.out).toContain('  retail: retail.json: 2 tasks × 2 trials (4 simulations)\n    pass^1  claimed -  recomputed 75.00  recorded 75.00\n');
    expect(r.out).toContain('    pass^1  claimed 62.50  recomputed 25.00  recorded 25.00  ← claim higher than recomputed by 37.50 points\n');
    expect(r.out).toContain('  telecom: telecom.json: missing (named in trajectory_files, not under trajectories/)\n');
    expect(r.out).toMatch(/2 submissions, 1 claim flagged\n$/);
  });

  it('a folder without submissions is a usage error', () => {
    const r = cli(DATA, '--data', DATA);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/holds no submission/);
  });
});
