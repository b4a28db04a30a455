import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataGroupOf, HEAD_BYTES, JudgePlan, type PlannedRun } from '../../src/worker/library-judge/plan';

const root = resolve(import.meta.dirname, '../..');
const head = (f: string): string => readFileSync(join(root, 'sample-runs/runs', f), 'utf8').slice(0, HEAD_BYTES);

/** Every index the plan hands out, in order, to the judges' lanes asking in turn (or in the order `lanes` gives). */
function dealt(runs: readonly PlannedRun[], judges: number, lanes: readonly number[] = []): number[] {
  const plan = new JudgePlan(runs, judges);
  const out: number[] = [];
  const lane = (n: number): number => lanes[n] ?? n % judges;
  for (let i = plan.next(lane(0)); i !== null; i = plan.next(lane(out.length))) out.push(i);
  return out;
}

describe('JudgePlan: which run of a library folder a judge takes next', () => {
  it("guesses a run's data from its first bytes: τ²'s domain_name, τ-bench's tool names, else nothing", () => {
    expect(dataGroupOf(head('tau2-mock-sample.json'))).toEqual({ kind: 'tau2', domain: 'mock' });
    expect(dataGroupOf(head('tau2-banking-sample.json'))).toEqual({ kind: 'tau2', domain: 'banking_knowledge' });
    expect(dataGroupOf(head('retail-sample.json'))).toEqual({ kind: 'tau-bench', domain: 'retail' });
    expect(dataGroupOf('{"simulations": [')).toBeNull();
  });

  it('deals the first runs over different data, then the biggest left first', () => {
    const runs: PlannedRun[] = [
      { index: 0, bytes: 50, group: 'tau-bench|retail' },
      { index: 1, bytes: 60, group: 'tau-bench|retail' },
      { index: 2, bytes: 40, group: 'tau-bench|airline' },
      { index: 3, bytes: 45, group: 'tau-bench|airline' },
      { index: 4, bytes: 10, group: null },
      { index: 5, bytes: 55, group: 'tau-bench|retail' },
    ];
    // Two judges: the biggest retail run and the biggest airline one first (not two retail runs), then each judge the
    // biggest left of its own data, and the biggest left of any once its own is done.
    expect(dealt(runs, 2)).toEqual([1, 3, 5, 2, 0, 4]);
    // One judge: its data's runs by size, then the biggest left.
    expect(dealt(runs, 1)).toEqual([1, 5, 0, 3, 2, 4]);
    // Three judges, two groups: the third takes the biggest left, and keeps to it.
    expect(dealt(runs, 3)).toEqual([1, 3, 5, 0, 2, 4]);
  });

  it("keeps each judge to its last run's data while runs of it are left, whichever judge asks first", () => {
    const runs: PlannedRun[] = [
      { index: 0, bytes: 90, group: 'tau-bench|retail' },
      { index: 1, bytes: 80, group: 'tau-bench|retail' },
      { index: 2, bytes: 70, group: 'tau-bench|retail' },
      { index: 3, bytes: 60, group: 'tau-bench|airline' },
      { index: 4, bytes: 20, group: 'tau-bench|airline' },
      { index: 5, bytes: 10, group: 'tau-bench|retail' },
    ];
    // Lane 1 (airline) is quicker: after its two runs it takes the biggest left (retail) and keeps to retail; lane 0 gets the last.
    expect(dealt(runs, 2, [0, 1, 1, 1, 0, 1])).toEqual([0, 3, 4, 1, 2, 5]);
    // Without groups (a folder whose runs' data the first bytes do not tell): by size alone, whichever lane asks.
    expect(
      dealt(
        runs.map((r) => ({ ...r, group: null })),
        2,
        [0, 1, 1, 1, 0, 1],
      ),
    ).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('by size alone when nothing is known of the runs’ data, ties in folder order', () => {
    const runs = [10, 30, 30, 20].map((bytes, index) => ({ index, bytes, group: null }));
    expect(dealt(runs, 2)).toEqual([1, 2, 3, 0]);
  });
});
