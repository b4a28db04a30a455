import { describe, expect, it } from 'vitest';
import { KNOWN_DATA_VERSIONS } from '../../src/core/model/data/versions';
import { InspectSession } from '../../src/core/session/session';
import { formatAverage, runAverages, taskPassRates } from '../../src/store/run-stats';
import { hasShared, readShared, sharedDb } from '../support/shared';

interface Expected {
  readonly index: number;
  readonly reward?: number | null;
}

/** Evaluates a whole file as the worker does and returns the store's averages, plus τ-bench's own per-episode rewards. */
function averagesOf(file: string) {
  const session = new InspectSession(readShared('runs', `${file}.json`));
  session.useData(KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, session.domain), source: 'shared' })));
  session.finish();
  const headers = session.headers();
  const expected = JSON.parse(readShared('expected', `${file}.expected.json`)) as Expected[];
  return { headers, averages: runAverages(headers, session.summaries()), expected };
}

describe('run averages name their denominator', () => {
  it('counts an episode that cannot be evaluated as 0 in the recomputed average, and leaves out missing recorded rewards', () => {
    const h = (index: number, recordedReward: number | null, problem: string | null = null) => ({
      index,
      taskId: index,
      trial: 0,
      recordedReward,
      turns: 1,
      problem,
      extra: {},
      fingerprint: String(index).padStart(64, '0'),
    });
    const ok = (index: number, reward: number) => ({
      index,
      reward,
      hypotheticalReward: null,
      done: true,
      doneBy: 'stop',
      reasons: [],
      reasonTexts: [],
      error: null,
      strategy: 'tool-calling',
      stepsExecuted: 1,
      diffCount: 0,
      outputsMissing: [],
      outputsTotal: 0,
      agrees: true,
    });
    const headers = [h(0, 1), h(1, 0, 'crashed'), h(2, null), h(3, 1)];
    const bad = { ...ok(1, 0), reward: null, error: 'crashed', agrees: null };
    const a = runAverages(headers, [ok(0, 1), bad, ok(2, 1), undefined]);
    expect(a.recorded).toMatchObject({ sum: 2, count: 3, zeroed: 1, missing: 1 });
    expect(a.recomputed).toMatchObject({ sum: 2, count: 3, zeroed: 1 });
    expect(a.recordedSameEpisodes).toMatchObject({ sum: 1, count: 2 });
    expect(a.complete).toBe(false);
    expect(formatAverage(a.recomputed)).toBe('0.667 = 2/3');
    expect(taskPassRates(headers, [ok(0, 1), bad, ok(2, 1), undefined]).get(1)).toEqual({ passed: 0, trials: 1 });
  });

  describe.skipIf(!hasShared)('on real runs from ../shared', () => {
    it('grok-4-tool-calling-retail: 79/115 recorded and recomputed, the 2 crashed episodes counting 0 as τ-bench reports', () => {
      const { headers, averages: a, expected } = averagesOf('grok-4-tool-calling-retail');
      const crashed = headers.filter((x) => x.problem !== null).length;
      expect(crashed).toBe(2);
      expect(a.episodes).toBe(115);
      expect(a.complete).toBe(true);
      expect(a.recorded).toMatchObject({ sum: 79, count: 115, zeroed: 2, missing: 0 });
      expect(a.recomputed).toMatchObject({ sum: 79, count: 115, zeroed: 2 });
      expect(formatAverage(a.recorded)).toBe('0.687 = 79/115');
      expect(formatAverage(a.recomputed)).toBe(formatAverage(a.recorded));
      // τ-bench's own verdicts: the same sum over the same denominator (crashes have no reward there: 0).
      expect(expected.reduce((s, e) => s + (e.reward ?? 0), 0)).toBe(a.recomputed.sum);
      expect(expected.length).toBe(a.recomputed.count);
    });

    it('grok-4-fast-few-shot-airline: recorded and recomputed share one denominator of 50, the crashed episode counting 0', () => {
      const { headers, averages: a, expected } = averagesOf('grok-4-fast-few-shot-airline');
      expect(headers.filter((x) => x.problem !== null).length).toBe(1);
      expect(a.recorded).toMatchObject({ sum: 19, count: 50, zeroed: 1, missing: 0 });
      expect(a.recomputed.count).toBe(50);
      expect(a.recomputed.zeroed).toBe(1);
      expect(a.recomputed.sum).toBe(expected.reduce((s, e) => s + (e.reward ?? 0), 0));
      expect(formatAverage(a.recorded)).toBe('0.380 = 19/50');
      expect(formatAverage(a.recomputed)).toBe(`${(a.recomputed.sum / 50).toFixed(3)} = ${a.recomputed.sum}/50`);
    });
  });
});
