/** τ² simulations as overview rows (headers, summaries with failed components) and τ²'s pass^k convention. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTau2Text, tau2Headers, tau2PassHatK, Tau2Session, tau2Summary, TAU2_TASK_KEY } from '../../../../src/core/contract';
import { describeTau2 } from '../../../support/shared';
import { openTau2, tau2Expected } from '../../../support/tau2';

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

describe('the τ² sample (sample-runs/runs/tau2-mock-sample.json on sample-runs/tau2-data, invented)', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../../sample-runs');
  const read = async (rel: string): Promise<string | null> => {
    try {
      return readFileSync(join(root, 'tau2-data', rel), 'utf8');
    } catch {
      return null;
    }
  };

  it('judges every simulation as recorded, each failing the component it was written to fail', async () => {
    const run = readTau2Text(readFileSync(join(root, 'runs', 'tau2-mock-sample.json'), 'utf8'))!;
    const session = await Tau2Session.open(run, read);
    const rows = Array.from({ length: session.size }, (_, i) => tau2Summary(session.report(i)));
    expect(rows.map((r) => r.agrees)).toEqual(rows.map(() => true));
    expect(rows.map((r) => [r.reward, r.tau2?.premature ? 'premature' : r.tau2?.failed.join('+')])).toEqual([
      [1, ''],
      [0, 'DB+ENV_ASSERTION'],
      [0, 'premature'],
      [1, ''],
      [0, 'COMMUNICATE'],
      [0, 'DB+ACTION'],
      [1, ''],
      [0, 'NL_ASSERTION'],
      [0, 'ENV_ASSERTION'],
    ]);
    // The user's own device: its calls are the user's, replayed on the user's DB.
    const v = session.simView(8);
    expect(v.messages.flatMap((m) => m.calls).map((c) => [c.requestor, c.error])).toEqual([['user', true]]);
    expect(v.envAssertions?.map((a) => [a.expected, a.actual])).toEqual([['True', 'False']]);
    expect(session.simView(7).nl?.[0]?.met).toBe(false);
  });
});
