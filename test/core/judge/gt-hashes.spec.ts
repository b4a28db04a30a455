import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import type { Task } from '../../../src/core/model/episode/types';
import { EvalCache } from '../../../src/core/judge/cache';
import { replayGroundTruth } from '../../../src/core/env/reward';
import { KNOWN_DATA_VERSIONS } from '../../../src/core/model/data/versions';
import { sharedExpected, sharedRun, sharedRunFiles } from '../../support/fixtures';
import { describeShared, readShared, sharedDb } from '../../support/shared';
import { readTaskFile } from '../../support/task-files';

interface GtEntry {
  gt_data_hash: string;
  gt_error_observations: string[];
}
type GtFile = { commits: Record<string, Record<string, GtEntry | string>> };

const fullCommit = (short: string): string => KNOWN_DATA_VERSIONS.find((k) => k.commit.startsWith(short))!.commit;

/**
 * Task definitions: from a tau-bench source tree when TAU_BENCH_TASKS points at one laid out as
 * `<commit>/tau_bench/envs/<domain>/tasks_<split>.py`; otherwise the tasks recorded in the
 * results files of ../shared/runs (test split), under the data version τ-bench's verdicts used.
 */
function tasksFor(commit: string): Map<string, Task> {
  const out = new Map<string, Task>();
  const root = process.env.TAU_BENCH_TASKS;
  if (root) {
    for (const domain of ['retail', 'airline'] as Domain[])
      for (const split of ['test', 'train', 'dev']) {
        const f = join(root, commit, 'tau_bench/envs', domain, `tasks_${split}.py`);
        if (existsSync(f)) readTaskFile(readFileSync(f, 'utf8')).forEach((t, i) => out.set(`${domain}/${split}/${i}`, t));
      }
    return out;
  }
  for (const file of sharedRunFiles()) {
    const expected = sharedExpected<{ domain?: Domain; data_commit?: string; task_id: number }>(file);
    sharedRun(file).forEach((r, i) => {
      const e = expected[i]!;
      if (r.task && e.domain && e.data_commit === commit) out.set(`${e.domain}/test/${e.task_id}`, r.task);
    });
  }
  return out;
}

describeShared('gt-data-hashes.json (reference replays by τ-bench)', () => {
  const gt = JSON.parse(readShared('expected', 'gt-data-hashes.json')) as GtFile;
  describe.each(Object.keys(gt.commits))('data %s', (short) => {
    const commit = fullCommit(short);
    const entries = gt.commits[short]!;
    const cache = new EvalCache();
    let tasks: Map<string, Task>;
    beforeAll(() => {
      tasks = tasksFor(commit);
    });

    it.each(['retail', 'airline'] as Domain[])('initial %s DB hash', (domain) => {
      expect(cache.hash(sharedDb(commit, domain))).toBe(entries[`${domain}/initial_db`]);
    });

    it("every task whose definition is available replays to τ-bench's hash and error observations", () => {
      const keys = Object.keys(entries).filter((k) => !k.endsWith('initial_db'));
      const covered = keys.filter((k) => tasks.has(k));
      const wrong: string[] = [];
      for (const key of covered) {
        const domain = key.split('/')[0] as Domain;
        const initial = sharedDb(commit, domain);
        const replay = replayGroundTruth(domain, initial, tasks.get(key)!.actions);
        const entry = entries[key] as GtEntry;
        const errors = replay.steps.filter((s) => s.observation?.startsWith('Error')).map((s) => s.observation);
        if (cache.hash(replay.state, initial) !== entry.gt_data_hash) wrong.push(`${key}: hash`);
        if (JSON.stringify(errors) !== JSON.stringify(entry.gt_error_observations)) wrong.push(`${key}: errors ${JSON.stringify(errors)}`);
      }
      console.log(
        `gt-data-hashes ${short}: ${covered.length - wrong.length}/${covered.length} task definitions checked agree (${keys.length} entries; definitions from ${process.env.TAU_BENCH_TASKS ? 'TAU_BENCH_TASKS' : 'the run files'})`,
      );
      expect(wrong).toEqual([]);
      expect(covered.length).toBeGreaterThanOrEqual(process.env.TAU_BENCH_TASKS ? keys.length : 50);
    });
  });
});
