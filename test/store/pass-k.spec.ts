import { describe, expect, it } from 'vitest';
import { passHatK } from '../../src/core/contract';

describe('passHatK (τ-bench formula)', () => {
  it('averages C(c,k)/C(n,k) over tasks, n = distinct trials', () => {
    const o = [
      { taskId: 0, trial: 0, reward: 1 },
      { taskId: 0, trial: 1, reward: 1 },
      { taskId: 0, trial: 2, reward: 0 },
      { taskId: 1, trial: 0, reward: 0 },
      { taskId: 1, trial: 1, reward: 1 },
      { taskId: 1, trial: 2, reward: 0 },
    ];
    const r = passHatK(o);
    expect(r.map((p) => p.k)).toEqual([1, 2, 3]);
    expect(r[0]!.value).toBeCloseTo((2 / 3 + 1 / 3) / 2);
    expect(r[1]!.value).toBeCloseTo((1 / 3 + 0) / 2);
    expect(r[2]!.value).toBe(0);
  });

  it('counts a reward within 1e-6 of 1 as a success', () => {
    expect(passHatK([{ taskId: 3, trial: 0, reward: 0.9999999 }])[0]!.value).toBe(1);
    expect(passHatK([{ taskId: 3, trial: 0, reward: 0.99 }])[0]!.value).toBe(0);
  });

  it('is empty for no outcomes', () => expect(passHatK([])).toEqual([]));
});
