import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { episodeFingerprint, exportNotes, formatReward, type EpisodeNotes } from '../../src/core/contract';
import { readResultsFile } from '../../src/core/model/episode/results-file';
import { DATA_DIR, hasShared, SHARED_DIR } from '../support/shared';
import { cliBundle } from '../support/cli-bundle';

const root = resolve(import.meta.dirname, '../..');

// The CLI bundled once per test run (as `npm run build:cli` ships it, test/support/cli-bundle.ts): each run is plain node, not tsx.
let bundle = '';
beforeAll(async () => {
  bundle = await cliBundle();
});
const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TAU_BENCH_DATA: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const sampleRun = join(root, 'sample-runs/runs/retail-sample.json');
const sampleData = join(root, 'sample-runs/data');
/** With REQUIRE_SHARED=1 a missing ../shared fails these tests instead of skipping them. */
const noShared = !hasShared && process.env.REQUIRE_SHARED !== '1';

/** The report's episodes: index and data-reward of each `report-episode` element. */
function reportEpisodes(html: string): { index: number; reward: string }[] {
  return [...html.matchAll(/<section [^>]*data-testid="report-episode" data-index="(\d+)" data-reward="([^"]*)"/g)].map((m) => ({
    index: Number(m[1]),
    reward: m[2]!,
  }));
}

const HOSTILE = `<script>alert("x")</script><img src=x onerror='alert(1)'>&amp;`;

describe('tau-inspect report', () => {
  it('rejects a call without -o or without a file, exit 2', () => {
    expect(cli('report', sampleRun, '--data', sampleData)).toMatchObject({ code: 2, err: expect.stringMatching(/missing -o REPORT.html/) });
    expect(cli('report', '-o', '/tmp/x.html')).toMatchObject({ code: 2, err: expect.stringMatching(/missing RESULTS.json/) });
  });

  it('refuses a notes file that is not a notes export and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-report-'));
    writeFileSync(join(dir, 'notes.json'), '{"hello": 1}');
    const out = join(dir, 'r.html');
    const r = cli('report', sampleRun, '--data', sampleData, '-o', out, '--notes', join(dir, 'notes.json'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a tau-inspect notes export');
    expect(() => readFileSync(out)).toThrow();
  });

  it('shows hostile text from the file name, messages and notes as text, with no script and no request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-report-'));
    const episodes = JSON.parse(readFileSync(sampleRun, 'utf8')) as { traj: { role: string; content: string | null }[] }[];
    const user = episodes[0]!.traj.find((m) => m.role === 'user')!;
    user.content = `${HOSTILE} ${user.content ?? ''}`;
    const file = join(dir, `<b>x<i>"'.json`);
    writeFileSync(file, JSON.stringify(episodes));
    const rec = readResultsFile(readFileSync(file, 'utf8'))[0]!;
    const note: EpisodeNotes = {
      fingerprint: episodeFingerprint(rec),
      label: 'agent error',
      note: HOSTILE,
      steps: { '0': HOSTILE },
      file: HOSTILE,
      index: 0,
      taskId: 0,
      updatedAt: '',
    };
    writeFileSync(join(dir, 'notes.json'), exportNotes(HOSTILE, [note]));
    const out = join(dir, 'r.html');
    const r = cli('report', file, '--data', sampleData, '-o', out, '--notes', join(dir, 'notes.json'));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('notes on 1 of 1');
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<script|<img|<b>x|<i>/i);
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;');
    expect(html).toContain('&lt;b&gt;x&lt;i&gt;&quot;&#39;.json');
    expect(html).toContain('label: <b>agent error</b>');
  });

  it.skipIf(noShared)(
    'carries τ-bench’s reward for all 200 episodes of gpt-4o-airline.json in one file',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'tau-report-'));
      const out = join(dir, 'report.html');
      const r = cli('report', join(SHARED_DIR, 'runs/gpt-4o-airline.json'), '--data', DATA_DIR, '-o', out);
      expect(r.code, r.err).toBe(0);
      const html = readFileSync(out, 'utf8');
      const expected = JSON.parse(readFileSync(join(SHARED_DIR, 'expected/gpt-4o-airline.expected.json'), 'utf8')) as { index: number; reward: number }[];
      const eps = reportEpisodes(html);
      expect(eps).toHaveLength(200);
      // Failed episodes first, then passed ones, each in file order.
      const failedFirst = [...expected.filter((x) => x.reward < 1), ...expected.filter((x) => x.reward >= 1)];
      expect(eps.map((e) => e.index)).toEqual(failedFirst.map((x) => x.index));
      expect(eps.map((e) => e.reward)).toEqual(failedFirst.map((x) => formatReward(x.reward)));
      expect(html).not.toMatch(/<script/i);
    },
    60_000,
  );
});

describe('tau-inspect compare', () => {
  it('needs two files', () => {
    expect(cli('compare', sampleRun)).toMatchObject({ code: 2, err: expect.stringMatching(/missing B.json/) });
  });

  it('compares a run with itself: every task the same on both sides, nothing flipped', () => {
    const r = cli('compare', sampleRun, sampleRun, '--data', sampleData, '--json');
    expect(r.code, r.err).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task_id: number; a: { trials: number; passes: number }; b: { trials: number; passes: number } });
    const recs = readResultsFile(readFileSync(sampleRun, 'utf8'));
    expect(lines.map((l) => l.task_id)).toEqual([...new Set(recs.map((x) => x.taskId))].sort((x, y) => x! - y!));
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['task_id', 'a', 'b', 'flip']);
      expect((l as { flip?: unknown }).flip).toBeNull();
      expect(l.a).toEqual(l.b);
      expect(l.a.trials).toBe(recs.filter((x) => x.taskId === l.task_id).length);
    }
    const text = cli('compare', sampleRun, sampleRun, '--data', sampleData);
    expect(text.out).toMatch(/flipped: 0 now passed by B, 0 no longer passed by B/);
  });

  it('counts a task whose episode now passes as flipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-compare-'));
    const a = join(dir, 'a.json');
    copyFileSync(sampleRun, a);
    // B: the same run with one failing episode replaced by a passing episode of the same task id.
    const episodes = JSON.parse(readFileSync(sampleRun, 'utf8')) as { task_id: number; reward: number }[];
    const pass = episodes.findIndex((e) => e.reward === 1);
    const b = join(dir, 'b.json');
    const only = [episodes[pass]!];
    writeFileSync(b, JSON.stringify(only));
    writeFileSync(a, JSON.stringify(only.map((e) => ({ ...e, traj: (e as unknown as { traj: unknown[] }).traj.slice(0, 2) }))));
    const r = cli('compare', a, b, '--data', sampleData, '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out.trim())).toEqual({ task_id: episodes[pass]!.task_id, a: { trials: 1, passes: 0 }, b: { trials: 1, passes: 1 }, flip: 'gained' });
    expect(cli('compare', a, b, '--data', sampleData).out).toMatch(/B passes, A did not/);
  });
});
