import { beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import type { EpisodeReport } from '../../../src/core/view/report-json';
import type { FileEvaluation } from '../../support/evaluate-file';
import { evaluatedSharedRun, sharedExpected, sharedRunFiles } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

/** τ-bench's own verdict on one episode (../shared/expected/*.expected.json). */
interface Expected {
  index: number;
  task_id: number;
  trial: number;
  recorded_reward: number;
  skipped?: string;
  domain?: Domain;
  strategy?: string;
  data_commit?: string;
  done?: boolean;
  done_by?: string | null;
  reward?: number;
  hypothetical_reward_if_done?: number;
  agent_hash?: string;
  gt_hash?: string;
  r_actions?: boolean;
  outputs?: Record<string, boolean> | null;
  diff_records?: string[];
  steps?: { action: string; observation: string }[];
  actions_executed?: number;
  actions_in_traj?: number;
  matches_recorded_gt_hash?: boolean | null;
  matches_recorded_reward?: boolean;
}

/** Fields compared for every evaluated episode, and how the report names them. */
const FIELDS = [
  'index',
  'task_id',
  'trial',
  'recorded_reward',
  'domain',
  'strategy',
  'data_commit',
  'done',
  'done_by',
  'reward',
  'hypothetical_reward_if_done',
  'agent_hash',
  'gt_hash',
  'r_actions',
  'outputs',
  'diff_records',
  'steps',
  'actions_executed',
  'actions_in_traj',
] as const satisfies readonly (keyof Expected & keyof EpisodeReport)[];

describeShared('parity with τ-bench verdicts (../shared/expected)', () => {
  const runFiles = sharedRunFiles();
  it('finds the run files', () => expect(runFiles.length).toBeGreaterThanOrEqual(12));

  describe.each(runFiles)('%s', (file) => {
    let expected: readonly Expected[];
    let result: FileEvaluation;
    beforeAll(() => {
      expected = sharedExpected<Expected>(file);
      result = evaluatedSharedRun(file);
    });

    it('has one verdict per episode', () => expect(result.reports.length).toBe(expected.length));

    it.each(FIELDS)('agrees on %s for every episode', (field) => {
      const mismatches: string[] = [];
      expected.forEach((exp, i) => {
        const got = result.reports[i]!;
        if (exp.skipped !== undefined) {
          if (got.error === undefined) mismatches.push(`#${i}: expected not evaluable (${exp.skipped})`);
          return;
        }
        const want = exp[field];
        const have = got[field];
        if (want === undefined && have === undefined) return;
        if (JSON.stringify(have) !== JSON.stringify(want))
          mismatches.push(`#${i} task ${exp.task_id}: ${JSON.stringify(have)?.slice(0, 300)} ≠ ${JSON.stringify(want)?.slice(0, 300)}`);
      });
      expect(mismatches.slice(0, 5), `${mismatches.length} of ${expected.length} episodes differ`).toEqual([]);
    });

    it.runIf(!file.startsWith('synthetic-'))('reproduces every recorded reward and gt_data_hash of this real run by auto-detection alone', () => {
      const off = result.reports.filter((r) => r.error === undefined && (r.matches_recorded_reward !== true || r.matches_recorded_gt_hash !== true));
      expect(off.map((r) => r.index)).toEqual([]);
      expect(result.reports.filter((r) => r.error === undefined && r.recorded_gt_hash !== null).length).toBeGreaterThan(0);
      // Nothing about a real τ-bench run needs explaining (a note on <think> blocks only describes the messages).
      expect(result.session.detection().notes.filter((n) => !n.includes('<think>'))).toEqual([]);
    });

    it('reproduces recorded rewards and gt_data_hash values wherever τ-bench does', () => {
      const off = expected.flatMap((exp, i) => {
        if (exp.skipped !== undefined) return [];
        const got = result.reports[i]!;
        const out: string[] = [];
        if (exp.matches_recorded_reward !== undefined && got.matches_recorded_reward !== exp.matches_recorded_reward) out.push(`#${i} reward`);
        if (
          exp.matches_recorded_gt_hash !== undefined &&
          exp.matches_recorded_gt_hash !== null &&
          got.matches_recorded_gt_hash !== exp.matches_recorded_gt_hash
        )
          out.push(`#${i} gt hash`);
        return out;
      });
      expect(off).toEqual([]);
    });
  });
});
