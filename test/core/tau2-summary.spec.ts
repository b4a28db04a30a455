/** τ² simulations as overview rows (headers, summaries with failed components) and τ²'s pass^k convention. */
import { describe, expect, it } from 'vitest';
import { tau2Headers, tau2PassHatK, tau2Summary, TAU2_TASK_KEY } from '../../src/core/contract';
import { describeTau2 } from '../support/shared';
import { openTau2, tau2Expected } from '../support/tau2';

interface ExpectedSim {
  task_id: string;
  trial: number;
  reward: number;
  premature: boolean;
  reward_basis: string[] | null;
  reward_breakdown: Record<string, number> | null;
  termination_reason: string;
}

describeTau2('τ² rows of ../shared/tau2 runs', () => {
  it.each(['sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'])(
    '%s: one row per simulation, its reward, failed components and termination as τ² records them',
    async (file) => {
      const session = await openTau2(file);
      const expected = tau2Expected(file).simulations as unknown as ExpectedSim[];
      const headers = tau2Headers(session.run);
      expect(headers.map((h) => h.index)).toEqual(expected.map((_, i) => i));
      expect(headers.map((h) => h.extra[TAU2_TASK_KEY])).toEqual(expected.map((x) => x.task_id));
      expect(new Set(headers.map((h) => h.fingerprint)).size).toBe(headers.length);
      let failedRows = 0;
      for (let i = 0; i < session.size; i++) {
        const s = tau2Summary(session.report(i));
        const x = expected[i]!;
        expect(s.reward, `simulation ${i}`).toBe(x.reward);
        const failed = (x.reward_basis ?? []).filter((c) => (x.reward_breakdown?.[c] ?? 1) < 1);
        expect(s.tau2?.failed, `simulation ${i}`).toEqual(failed);
        expect(s.tau2?.premature).toBe(x.premature);
        expect(s.tau2?.termination).toBe(x.termination_reason);
        if (failed.length > 0) failedRows++;
      }
      // Both runs have failed simulations: the comparison above is not vacuous.
      expect(failedRows).toBeGreaterThan(0);
    },
    60_000,
  );
});

describe('τ²’s pass^k', () => {
  const o = (task: string, reward: number, termination = 'user_stop') => ({ task, reward, termination });

  it('k runs to the fewest trials of any task, each task over its own trials', () => {
    // Task a: 2 of 3 pass; task b: 1 of 2. Max k = 2 (b has 2 trials).
    const r = tau2PassHatK([o('a', 1), o('a', 1), o('a', 0), o('b', 1), o('b', 0.5)], null);
    expect(r.map((p) => p.k)).toEqual([1, 2]);
    expect(r[0]!.value).toBeCloseTo((2 / 3 + 1 / 2) / 2, 12);
    expect(r[1]!.value).toBeCloseTo((1 / 3 + 0) / 2, 12);
  });

  it('a success is within 1e-6 of 1; infrastructure errors are left out; info.num_trials caps k', () => {
    const r = tau2PassHatK([o('a', 1 - 5e-7), o('a', 0, 'infrastructure_error'), o('a', 1), o('b', 1), o('b', 1)], 1);
    expect(r).toEqual([{ k: 1, value: 1 }]);
    expect(tau2PassHatK([], null)).toEqual([]);
  });
});
