/**
 * The leaderboard's statistics: pass^k intervals (seeded percentile bootstrap over tasks) checked against a reference
 * computed here from the documented procedure with its own generator, the paired comparison, the sign test, the
 * noise floor and the ranking minimum.
 */
import { describe, expect, it } from 'vitest';
import {
  BOOTSTRAP,
  bootstrapMeans,
  comparePaired,
  INTERVAL_METHOD,
  MIN_RANKED_TASKS,
  mulberry32,
  noiseFloor,
  passKIntervals,
  signTestP,
  taskPassK,
  unrankedReason,
  type TaskTally,
} from '../../../../src/core/contract';

/** mulberry32 as it is usually published (state grows as a double; the bit operations read it as 32 bits). */
function referenceRng(seed: number): () => number {
  let a = seed;
  return function () {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The documented procedure, written out plainly: B resamples of n task indices, each resample's mean, sorted; the 26th and 975th of 1,000. */
function referenceInterval(values: number[], seed: number, resamples: number): { lo: number; hi: number } {
  const rng = referenceRng(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const picked: number[] = [];
    for (let j = 0; j < values.length; j++) picked.push(values[Math.floor(rng() * values.length)]!);
    means.push(picked.reduce((s, x) => s + x, 0) / picked.length);
  }
  means.sort((x, y) => x - y);
  const loRank = Math.round(resamples * 0.025) + 1; // 26th of 1,000
  const hiRank = Math.round(resamples * 0.975); // 975th of 1,000
  return { lo: means[loRank - 1]!, hi: means[hiRank - 1]! };
}

/** Exact two-sided sign test with BigInt binomials. */
function referenceSignP(w: number, l: number): number {
  const n = w + l;
  const m = Math.min(w, l);
  let c = 1n;
  let sum = 0n;
  for (let i = 0; i <= m; i++) {
    if (i > 0) c = (c * BigInt(n - i + 1)) / BigInt(i);
    sum += c;
  }
  return Math.min(1, Number((2n * sum * 10n ** 18n) / 2n ** BigInt(n)) / 1e18);
}

const tallies: TaskTally[] = [
  { n: 4, c: 4 },
  { n: 4, c: 3 },
  { n: 4, c: 0 },
  { n: 4, c: 2 },
  { n: 3, c: 1 },
  { n: 4, c: 4 },
  { n: 4, c: 1 },
  { n: 2, c: 2 },
  { n: 4, c: 0 },
  { n: 4, c: 3 },
  { n: 4, c: 4 },
  { n: 4, c: 2 },
];

describe('pass^k intervals', () => {
  it('the generator is mulberry32 as published', () => {
    const ours = mulberry32(BOOTSTRAP.seed);
    const ref = referenceRng(BOOTSTRAP.seed);
    const a = Array.from({ length: 20_000 }, () => ours());
    const b = Array.from({ length: 20_000 }, () => ref());
    expect(a).toEqual(b);
  });

  it('matches the fixed-seed reference computed here, for every k', () => {
    expect(BOOTSTRAP).toEqual({ resamples: 1000, seed: 20261205, level: 0.95 });
    const out = passKIntervals(tallies, 2);
    for (const k of [1, 2]) {
      const per = tallies.map((t) => {
        let num = 1;
        let den = 1;
        for (let i = 0; i < k; i++) {
          num *= t.c - i;
          den *= t.n - i;
        }
        return t.c < k ? 0 : num / den;
      });
      const ref = referenceInterval(per, BOOTSTRAP.seed, BOOTSTRAP.resamples);
      const got = out[k - 1]!;
      expect(got.k).toBe(k);
      expect(got.tasks).toBe(12);
      expect(got.value).toBeCloseTo(per.reduce((s, x) => s + x, 0) / per.length, 12);
      expect(got.lo).toBeCloseTo(ref.lo, 12);
      expect(got.hi).toBeCloseTo(ref.hi, 12);
      expect(got.lo).toBeLessThanOrEqual(got.value);
      expect(got.hi).toBeGreaterThanOrEqual(got.value);
    }
    expect(INTERVAL_METHOD).toMatch(/26th to the 975th/);
    expect(INTERVAL_METHOD).toContain('with replacement 1,000 times');
  });

  it('τ-bench’s common n: every task over the run’s distinct trials', () => {
    const v = taskPassK([{ n: 2, c: 2 }], 2, 4);
    expect(v[0]).toBeCloseTo(1 / 6, 15);
  });

  it('is about as wide as the normal approximation on many tasks', () => {
    const rng = referenceRng(7);
    const n = 400;
    const values = Float64Array.from({ length: n }, () => (rng() < 0.6 ? 1 : 0));
    const p = values.reduce((s, x) => s + x, 0) / n;
    const [ci] = bootstrapMeans([values]);
    const half = 1.96 * Math.sqrt((p * (1 - p)) / n);
    expect(ci!.hi - ci!.lo).toBeGreaterThan(2 * half * 0.85);
    expect(ci!.hi - ci!.lo).toBeLessThan(2 * half * 1.15);
  });

  it('is the point itself for one task, and nothing for none', () => {
    expect(passKIntervals([{ n: 1, c: 1 }], 1)).toEqual([{ k: 1, value: 1, lo: 1, hi: 1, tasks: 1 }]);
    expect(passKIntervals([], 3)).toEqual([]);
  });
});

describe('ranking, noise floor and paired comparison', () => {
  it('does not rank a run below the minimum of tasks', () => {
    expect(unrankedReason(1, 1)).toMatch(/^1 task: a run is ranked from 10 tasks/);
    expect(unrankedReason(MIN_RANKED_TASKS, 1)).toBeNull();
  });

  it('the noise floor is the spread of per-trial pass^1, from two trials', () => {
    expect(noiseFloor([{ trial: 0, pass: true }])).toBeNull();
    const f = noiseFloor([
      { trial: 0, pass: true },
      { trial: 0, pass: true },
      { trial: 1, pass: true },
      { trial: 1, pass: false },
      { trial: 2, pass: false },
      { trial: 2, pass: false },
    ])!;
    expect(f.perTrial.map((x) => x.value)).toEqual([1, 0.5, 0]);
    expect(f.sd).toBeCloseTo(0.5, 15);
    expect([f.min, f.max, f.trials]).toEqual([0, 1, 3]);
  });

  it('the sign test is the exact binomial tail', () => {
    for (const [w, l] of [
      [0, 0],
      [5, 0],
      [7, 3],
      [12, 30],
      [600, 540],
    ] as const)
      expect(signTestP(w, l)).toBeCloseTo(referenceSignP(w, l), 10);
  });

  it('calls A better only when the paired interval excludes 0; the same run is no better than itself', () => {
    const a = new Map<string, TaskTally>();
    const b = new Map<string, TaskTally>();
    for (let i = 0; i < 40; i++) {
      a.set(String(i), { n: 1, c: i % 10 < 8 ? 1 : 0 });
      b.set(String(i), { n: 1, c: i % 10 < 3 ? 1 : 0 });
    }
    b.set('only-b', { n: 1, c: 1 });
    const ab = comparePaired(a, b);
    expect(ab).toMatchObject({ tasks: 40, wins: 20, losses: 0, ties: 20, better: 'a', onlyA: 0, onlyB: 1 });
    expect(ab.diff).toBeCloseTo(0.5, 15);
    expect(ab.lo).toBeGreaterThan(0);
    expect(ab.signP).toBeCloseTo(referenceSignP(20, 0), 12);
    const diffs = [...a].map(([t, x]) => x.c / x.n - b.get(t)!.c / b.get(t)!.n);
    const ref = referenceInterval(diffs, BOOTSTRAP.seed, BOOTSTRAP.resamples);
    expect([ab.lo, ab.hi]).toEqual([ref.lo, ref.hi]);
    expect(comparePaired(b, a).better).toBe('b');
    const same = comparePaired(a, a);
    expect(same).toMatchObject({ better: 'none', diff: 0, wins: 0, losses: 0, signP: 1 });
    // A small difference: the interval holds 0, and a noise floor larger than it says so.
    const c = new Map(a);
    c.set('0', { n: 1, c: 0 });
    const small = comparePaired(a, c, { trials: 2, perTrial: [], sd: 0.05, min: 0, max: 0 }, null);
    expect(small.better).toBe('none');
    expect(small.withinNoise).toBe(true);
  });
});
