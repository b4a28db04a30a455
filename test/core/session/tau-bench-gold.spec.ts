/**
 * The task audit's gold findings of a τ-bench task (the index writes them into finding_kinds): its reference actions
 * replayed as τ-bench replays them, on the invented sample data — one crafted task per kind, and the task as shipped.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InspectSession } from '../../../src/core/contract';
import { replayGroundTruth } from '../../../src/core/env/reward';
import { tauBenchGoldKinds, tauBenchRunRows } from '../../../src/core/session/index-row';
import type { Task } from '../../../src/core/model/episode/types';
import { alignActions } from '../../../src/core/view/alignment';
import { ROOT, sampleRun, sampleVersion } from '../../support/fixtures';

const base = (): Task => sampleRun()[0]!.task!;
const kinds = (t: Task): string[] => tauBenchGoldKinds('retail', sampleVersion().db, t);
const action = (name: string, kwargs: Record<string, string>) => ({ name, kwargs: new Map(Object.entries(kwargs)) });

describe('τ-bench gold findings', () => {
  it('the task as shipped: none (its reference cancels an order: the DB changes)', () => {
    expect(kinds(base())).toEqual([]);
  });

  it('a reference action that raises', () => {
    const t = base();
    expect(kinds({ ...t, actions: [...t.actions, action('get_order_details', { order_id: '#NO_SUCH_ORDER' })] })).toEqual(['gold-action-raises']);
  });

  it('a reference that leaves the DB as it started', () => {
    expect(kinds({ ...base(), actions: [action('get_user_details', { user_id: 'priya_okafor_3187' })] })).toEqual(['no-op-reference']);
  });

  it('an output no observation of the reference holds; one it holds (case and commas as τ-bench matches) is not named', () => {
    const t = base();
    expect(kinds({ ...t, outputs: ['zebra-42'] })).toEqual(['gold-info-unseen']);
    expect(kinds({ ...t, outputs: ['PRIYA_OKAFOR_3187'] })).toEqual([]);
  });

  it("a run's rows take each task's reference replay from its episodes' evaluation (not replayed again), with the same kinds", async () => {
    const s = new InspectSession(readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8'));
    s.useData(await s.loadData(async (rel) => readFile(join(ROOT, 'sample-runs/data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
    const rows = tauBenchRunRows(s, { file: 'retail-sample.json', content_hash: '' });
    const db = s.dataVersion!.db;
    let compared = 0;
    for (const [i, r] of s.records.entries()) {
      const o = s.evaluation(i);
      if (!o.ok || !r.task) continue;
      // The evaluation's own replay (the one the row's kinds are made from), the same as one made afresh.
      const gt = o.value.groundTruth;
      const fresh = replayGroundTruth('retail', db, r.task.actions);
      expect(gt.steps.map((x) => x.observation)).toEqual(fresh.steps.map((x) => x.observation));
      expect(rows[i]!.finding_kinds).toEqual(expect.arrayContaining(tauBenchGoldKinds('retail', db, r.task)));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("a report's alignment, computed when read (a row never reads it), is the episode's alignment in its place among the keys", async () => {
    const s = new InspectSession(readFileSync(join(ROOT, 'sample-runs/runs/retail-sample.json'), 'utf8'));
    s.useData(await s.loadData(async (rel) => readFile(join(ROOT, 'sample-runs/data', rel), 'utf8').catch(() => null), 'sample-runs/data'));
    for (const [i, report] of s.reports().entries()) {
      const o = s.evaluation(i);
      if (!o.ok) continue;
      const ev = o.value;
      const a = alignActions('retail', s.dataVersion!.db, ev.replay.steps, ev.record.task?.actions ?? [], ev.groundTruth, ev.diff);
      expect(report.alignment).toEqual({
        pairs: a.pairs.map((p) => ({ gold: p.gold, step: p.step, match: p.match, write: p.write })),
        first_divergent_write: a.firstDivergentWrite,
      });
      expect(report.alignment).toBe(report.alignment);
      const keys = Object.keys(report);
      expect(keys.indexOf('alignment')).toBe(keys.indexOf('findings') + 1);
      expect(JSON.parse(JSON.stringify(report)).alignment).toEqual(report.alignment);
    }
  });
});
