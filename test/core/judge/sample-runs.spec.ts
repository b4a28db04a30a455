import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { episodeView } from '../../../src/core/view/episode-view';
import { reasons } from '../../../src/core/view/explain';
import { fieldDiff } from '../../../src/core/view/field-diff';
import { loadDataVersions, type DataVersion } from '../../../src/core/model/data/versions';
import { RESPOND } from '../../../src/core/model/episode/actions';
import { readResultsFile } from '../../../src/core/model/episode/results-file';
import type { EpisodeRecord } from '../../../src/core/model/episode/types';
import { STOP_TOKEN } from '../../../src/core/env/replay';
import { finalReward, type EpisodeEvaluation } from '../../../src/core/judge/evaluate';
import { EvalCache } from '../../../src/core/judge/cache';
import { evaluateFile, type FileEvaluation } from '../../support/evaluate-file';
import type { PyDict, PyValue } from '../../../src/core/py/value';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sample-runs');

let records: EpisodeRecord[];
let versions: DataVersion[];
let result: FileEvaluation;

beforeAll(async () => {
  records = readResultsFile(readFileSync(join(ROOT, 'runs/retail-sample.json'), 'utf8'));
  const cache = new EvalCache();
  const read = async (rel: string): Promise<string | null> => {
    try {
      return await readFile(join(ROOT, 'data', rel), 'utf8');
    } catch {
      return null;
    }
  };
  versions = await loadDataVersions(read, 'retail', 'sample-runs/data', (db) => cache.hash(db));
  result = evaluateFile(records, () => versions);
});

function ev(index: number): EpisodeEvaluation {
  const o = result.outcomes[index]!;
  if (!o.ok) throw new Error(`episode ${index} not evaluated: ${o.error}`);
  return o.value;
}

const view = (index: number) => episodeView(ev(index), result.version, result.rule);
const codes = (index: number) => {
  const e = ev(index);
  return reasons(e.verdicts[result.rule], e.replay, e.diff).map((r) => r.code);
};
const get = (v: PyValue | undefined, ...path: string[]): PyValue | undefined =>
  path.reduce<PyValue | undefined>((x, k) => (x instanceof Map ? x.get(k) : undefined), v);
const record = (db: PyDict, table: string, key: string): PyValue | undefined => get(db, table, key);

describe('sample runs (sample-runs/runs/retail-sample.json on the invented retail data)', () => {
  it('is detected as retail on the sample data, which is no τ-bench version', () => {
    expect(records).toHaveLength(14);
    expect(records.every((r) => r.problem === null)).toBe(true);
    expect(versions).toHaveLength(1);
    expect(result.domain).toBe('retail');
    expect(result.version.known).toBeNull();
    expect(result.version.commit).toMatch(/^unknown:/);
    expect(result.rule).toBe('db-and-outputs');
    expect(result.outcomes.every((o) => o.ok)).toBe(true);
  });

  it('records every reward τ-bench would give, and its gt_data_hash / outputs', () => {
    for (let i = 0; i < records.length; i++) {
      const e = ev(i);
      expect(finalReward(e, result.rule), `episode ${i}`).toBe(e.record.recordedReward);
      const info = get(e.record.recordedRewardInfo ?? undefined, 'info');
      if (!e.replay.done) {
        expect(e.record.recordedRewardInfo, `episode ${i}`).toBeNull();
        continue;
      }
      const verdict = e.verdicts[result.rule];
      expect(get(e.record.recordedRewardInfo ?? undefined, 'reward')).toBe(verdict.reward);
      if (verdict.outputs === null) {
        expect(e.recordedGtHash, `episode ${i}`).toBe(e.gtHash);
        expect(get(info, 'r_actions')).toBe(verdict.rActions ? 1 : 0);
      } else {
        const recorded = get(info, 'outputs') as PyDict;
        expect(Object.fromEntries(recorded), `episode ${i}`).toEqual(Object.fromEntries(verdict.outputs.checks.map((c) => [c.output, c.found])));
      }
    }
  });

  it('stores the observations the tools return on the sample data', () => {
    for (let i = 0; i < records.length; i++) {
      const e = ev(i);
      expect(e.replay.crash).toBeNull();
      for (const s of e.replay.steps)
        if (s.action.name !== RESPOND) {
          expect(s.unknownTool).toBe(false);
          expect(s.agentStep.recordedObservation, `episode ${i} step ${s.index}`).toBe(s.observation);
        }
    }
  });

  it('ends every finished episode with ###STOP### in the last user turn', () => {
    for (let i = 0; i < records.length; i++) {
      const e = ev(i);
      if (!e.replay.done) continue;
      expect(e.replay.doneBy).toBe('stop');
      expect(e.replay.ignoredAfterDone).toBe(0);
      const last = e.record.traj[e.record.traj.length - 1]!;
      expect(last.get('role')).toBe('user');
      expect(last.get('content')).toContain(STOP_TOKEN);
    }
  });

  it('#0: a clean pass (cancel after the user confirms)', () => {
    const e = ev(0);
    expect(e.record.recordedReward).toBe(1);
    expect(e.diff).toEqual([]);
    expect(codes(0)).toEqual([]);
    const cancel = e.replay.steps.findIndex((s) => s.action.name === 'cancel_pending_order');
    const confirmation = e.replay.steps[cancel - 1]!;
    expect(confirmation.action.name).toBe(RESPOND);
    expect(confirmation.observation).toMatch(/^yes/i);
    expect(get(e.replay.finalState, 'users', 'priya_okafor_3187', 'payment_methods', 'gift_card_2864410', 'balance')).toBe(189.49);
  });

  it('#1: DB mismatch from exchanging the wrong item', () => {
    const e = ev(1);
    expect(e.record.recordedReward).toBe(0);
    expect(codes(1)).toEqual(['db-mismatch']);
    expect(e.diff.map((d) => `${d.table}/${d.key}`)).toEqual(['orders/#W7315560']);
    const changes = fieldDiff(e.diff[0]!.agent, e.diff[0]!.reference);
    const paths = changes.map((c) => c.path.join('..'));
    expect(paths).toContain('exchange_price_difference');
    expect(paths.some((p) => p.startsWith('exchange_new_items'))).toBe(true);
    expect(get(e.diff[0]!.agent, 'exchange_new_items')).toEqual(['2051947368']);
    expect(get(e.diff[0]!.reference, 'exchange_new_items')).toEqual(['6619380254']);
  });

  it('#2: a required output the agent never states', () => {
    const e = ev(2);
    expect(e.record.recordedReward).toBe(0);
    expect(e.verdicts[result.rule].rActions).toBe(true);
    expect(codes(2)).toEqual(['missing-output']);
    const out = view(2).outputs!;
    expect(out).toEqual([expect.objectContaining({ output: '1177.59', found: false, elsewhere: [] })]);
  });

  it('#3: a required output that only appears in a tool result does not count', () => {
    expect(ev(3).record.recordedReward).toBe(0);
    expect(codes(3)).toEqual(['missing-output']);
    const v = view(3);
    const out = v.outputs![0]!;
    expect(out.output).toBe('640215983377');
    expect(out.found).toBe(false);
    expect(out.elsewhere.length).toBeGreaterThan(0);
    expect(out.elsewhere.every((x) => x.kind === 'tool-result')).toBe(true);
    expect(v.messages[out.elsewhere[0]!.messageIndex]!.role).toBe('tool');
  });

  it('#4: a pass with a policy slip (return without the user saying yes)', () => {
    const e = ev(4);
    expect(e.record.recordedReward).toBe(1);
    expect(codes(4)).toEqual([]);
    const ret = e.replay.steps.findIndex((s) => s.action.name === 'return_delivered_order_items');
    expect(ret).toBeGreaterThan(0);
    const before = e.replay.steps.slice(0, ret);
    expect(before.filter((s) => s.action.name === RESPOND).some((s) => /\byes\b/i.test(s.observation))).toBe(false);
    expect(e.replay.steps[ret - 1]!.action.name).not.toBe(RESPOND);
  });

  it('#5: int vs float: a gift card balance 49 becomes 49.0', () => {
    const e = ev(5);
    expect(e.record.recordedReward).toBe(0);
    expect(codes(5)).toEqual(['db-mismatch']);
    expect(e.diff.map((d) => `${d.table}/${d.key}`)).toEqual(['orders/#W4458021', 'users/greta_marchetti_5519']);
    const balance = ['payment_methods', 'gift_card_9043317', 'balance'];
    expect(get(record(e.replay.finalState, 'users', 'greta_marchetti_5519'), ...balance)).toBe(49);
    expect(get(record(e.groundTruth.state, 'users', 'greta_marchetti_5519'), ...balance)).toBe(49n);
    const user = view(5).diff.find((d) => d.table === 'users')!;
    expect(user.intVsFloatOnly).toBe(true);
    expect(user.fields).toHaveLength(1);
    expect(user.fields[0]).toMatchObject({ agent: '49.0', reference: '49', intVsFloat: true });
    expect(view(5).diff.find((d) => d.table === 'orders')!.intVsFloatOnly).toBe(false);
  });

  it('#6: hit the 30-step limit without ###STOP###', () => {
    const e = ev(6);
    expect(e.record.recordedReward).toBe(0);
    expect(e.record.recordedRewardInfo).toBeNull();
    expect(e.replay.done).toBe(false);
    expect(e.agentSteps).toHaveLength(30);
    expect(e.replay.steps).toHaveLength(30);
    expect(e.record.traj.some((m) => String(m.get('content') ?? '').includes(STOP_TOKEN))).toBe(false);
    expect(codes(6)[0]).toBe('never-finished');
    expect(view(6).verdict.hypotheticalReward).toBe(0);
    expect(e.replay.steps.filter((s) => s.observation === 'Error: non-pending order cannot be modified').length).toBeGreaterThan(1);
  });

  it('#11: DB mismatch from refunding to the wrong payment method', () => {
    const e = ev(11);
    expect(e.record.recordedReward).toBe(0);
    expect(codes(11)).toEqual(['db-mismatch']);
    expect(e.diff.map((d) => `${d.table}/${d.key}`)).toEqual(['orders/#W2906674']);
    expect(get(e.diff[0]!.agent, 'return_payment_method_id')).toBe('gift_card_6652094');
    expect(get(e.diff[0]!.reference, 'return_payment_method_id')).toBe('paypal_5068831');
  });

  it('has 7 tasks × 2 trials with pass^1 = 4/7 and pass^2 = 1/7', () => {
    const byTask = new Map<number, { trials: number[]; successes: number }>();
    for (const r of records) {
      const t = byTask.get(r.taskId!) ?? { trials: [], successes: 0 };
      t.trials.push(r.trial!);
      if (r.recordedReward === 1) t.successes++;
      byTask.set(r.taskId!, t);
    }
    expect([...byTask.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const t of byTask.values()) expect(t.trials.sort()).toEqual([0, 1]);
    const n = 2;
    const comb = (a: number, k: number): number => (k > a ? 0 : k === 1 ? a : k === 2 ? (a * (a - 1)) / 2 : 1);
    const passK = (k: number): number => [...byTask.values()].reduce((s, t) => s + comb(t.successes, k) / comb(n, k), 0) / byTask.size;
    expect(passK(1)).toBeCloseTo(4 / 7, 12);
    expect(passK(2)).toBeCloseTo(1 / 7, 12);
  });
});
