/**
 * Honest numbers for a leaderboard: pass^k with its denominator and a 95 % interval (a seeded percentile bootstrap
 * over tasks), a run compared with another paired by task (paired bootstrap and a sign test), and a run's noise
 * floor (how much pass^1 moves from one trial to the next). Pure and deterministic: the same rows give the same
 * intervals on every machine and in every run.
 */
import { comb } from '../pass-k';

/** The bootstrap's settings: how many resamples, from which seed, at which confidence level. */
export const BOOTSTRAP = { resamples: 1000, seed: 20261205, level: 0.95 } as const;

/** An int with thousands commas (`10,000`), as `toLocaleString('en')` writes it without loading the locale data at start-up (~10 ms). */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The interval's method in words (the leaderboard's tooltip, the CLI's JSON). */
export const INTERVAL_METHOD =
  `95 % interval: percentile bootstrap over tasks — the run’s tasks resampled with replacement ${thousands(BOOTSTRAP.resamples)} times ` +
  `(mulberry32 seeded with ${BOOTSTRAP.seed}), the mean of the per-task pass^k of each resample, sorted; the interval runs from the ` +
  `${Math.floor((BOOTSTRAP.resamples * (1 - BOOTSTRAP.level)) / 2) + 1}th to the ${Math.ceil((BOOTSTRAP.resamples * (1 + BOOTSTRAP.level)) / 2)}th of them. ` +
  'Trials within a task are not resampled: the interval is about which tasks a benchmark happens to hold.';

/** Below these a run is listed but not ranked: pass^1 over fewer tasks says too little. */
export const MIN_RANKED_TASKS = 10;
/** …and every task needs this many trials (τ²'s infrastructure errors left out). */
export const MIN_RANKED_TRIALS = 1;

/** Why a run with `tasks` tasks of at most `trials` trials is not ranked, or null when it is. */
export function unrankedReason(tasks: number, trials: number): string | null {
  if (tasks < MIN_RANKED_TASKS) return `${tasks} task${tasks === 1 ? '' : 's'}: a run is ranked from ${MIN_RANKED_TASKS} tasks`;
  if (trials < MIN_RANKED_TRIALS)
    return `${trials} trials of some task: a run is ranked from ${MIN_RANKED_TRIALS} trial${MIN_RANKED_TRIALS === 1 ? '' : 's'} per task`;
  return null;
}

/** mulberry32: a 32-bit seeded generator, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One task's trials in a run: `n` trials (τ²'s infrastructure errors left out), `c` of them pass. */
export interface TaskTally {
  readonly n: number;
  readonly c: number;
}

/**
 * Each task's pass^k, C(c, k) / C(n, k), whose mean over tasks is the run's pass^k: `n` is the task's own trials
 * (τ²) or, when `trials` is given, the run's distinct trials for every task (τ-bench's rule).
 */
export function taskPassK(tallies: readonly TaskTally[], k: number, trials?: number): Float64Array {
  const out = new Float64Array(tallies.length);
  tallies.forEach((t, i) => (out[i] = comb(t.c, k) / comb(trials ?? t.n, k)));
  return out;
}

export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

/** The positions of the interval's ends in `resamples` sorted means: the 25th and the 975th of 1,000 (1-based). */
export function intervalRanks(resamples: number, level: number): { lo: number; hi: number } {
  return { lo: Math.floor((resamples * (1 - level)) / 2), hi: Math.ceil((resamples * (1 + level)) / 2) - 1 };
}

/**
 * Percentile bootstrap of the mean, for several statistics over the same tasks at once (pass^1…pass^k: one draw of
 * tasks per resample serves every k). `values[s][i]`: statistic s of task i. Draw j of resample b is task
 * `floor(rng() · n)`, drawn in resample order then task order from one `mulberry32(seed)`.
 */
export function bootstrapMeans(values: readonly Float64Array[], opts: { resamples?: number; seed?: number; level?: number } = {}): Interval[] {
  const n = values[0]?.length ?? 0;
  if (n === 0) return values.map(() => ({ lo: NaN, hi: NaN }));
  const resamples = opts.resamples ?? BOOTSTRAP.resamples;
  const draws = drawsFor(n, resamples, opts.seed ?? BOOTSTRAP.seed);
  const at = intervalRanks(resamples, opts.level ?? BOOTSTRAP.level);
  const means = new Float64Array(resamples);
  return values.map((v) => {
    for (let b = 0, d = 0; b < resamples; b++) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += v[draws[d++]!]!;
      means[b] = sum / n;
    }
    means.sort();
    return { lo: means[at.lo]!, hi: means[at.hi]! };
  });
}

/**
 * The task drawn at each place of each resample for `n` tasks: the same for every run of `n` tasks (the seed is
 * fixed), so a library of many runs draws once per size. A few sizes are kept.
 */
const DRAWS = new Map<string, Uint32Array>();
function drawsFor(n: number, resamples: number, seed: number): Uint32Array {
  const key = `${n}:${resamples}:${seed}`;
  let d = DRAWS.get(key);
  if (d === undefined) {
    const rng = mulberry32(seed);
    d = new Uint32Array(n * resamples);
    for (let i = 0; i < d.length; i++) d[i] = Math.floor(rng() * n);
    if (DRAWS.size >= 64) DRAWS.delete(DRAWS.keys().next().value!);
    DRAWS.set(key, d);
  }
  return d;
}

/** pass^1…pass^maxK of a run's tasks, each with its 95 % interval and what it is over. */
export interface PassKInterval {
  readonly k: number;
  readonly value: number;
  readonly lo: number;
  readonly hi: number;
  /** Tasks the mean is over (its denominator). */
  readonly tasks: number;
}

/** pass^k with intervals from per-task tallies (`trials`: τ-bench's common n, else each task's own). */
export function passKIntervals(tallies: readonly TaskTally[], maxK: number, trials?: number): PassKInterval[] {
  if (tallies.length === 0 || maxK < 1) return [];
  const values = Array.from({ length: maxK }, (_, i) => taskPassK(tallies, i + 1, trials));
  const intervals = bootstrapMeans(values);
  return values.map((v, i) => ({ k: i + 1, value: v.reduce((s, x) => s + x, 0) / v.length, lo: intervals[i]!.lo, hi: intervals[i]!.hi, tasks: v.length }));
}

/**
 * A run's noise floor: pass^1 of each trial on its own (the tasks that have that trial), and their spread. A
 * difference between runs smaller than the floor is within what one run does from trial to trial.
 */
export interface NoiseFloor {
  readonly trials: number;
  /** pass^1 of each trial, in trial order. */
  readonly perTrial: readonly { readonly trial: number; readonly value: number }[];
  /** Sample standard deviation of `perTrial` (n − 1). */
  readonly sd: number;
  readonly min: number;
  readonly max: number;
}

/** The noise floor from a run's judged trials; null with fewer than two trials. */
export function noiseFloor(outcomes: Iterable<{ readonly trial: number; readonly pass: boolean }>): NoiseFloor | null {
  const per = new Map<number, { n: number; c: number }>();
  for (const o of outcomes) {
    const t = per.get(o.trial) ?? { n: 0, c: 0 };
    t.n++;
    if (o.pass) t.c++;
    per.set(o.trial, t);
  }
  if (per.size < 2) return null;
  const perTrial = [...per].sort((a, b) => a[0] - b[0]).map(([trial, t]) => ({ trial, value: t.c / t.n }));
  const mean = perTrial.reduce((s, x) => s + x.value, 0) / perTrial.length;
  const sd = Math.sqrt(perTrial.reduce((s, x) => s + (x.value - mean) ** 2, 0) / (perTrial.length - 1));
  const values = perTrial.map((x) => x.value);
  return { trials: perTrial.length, perTrial, sd, min: Math.min(...values), max: Math.max(...values) };
}

/** Two-sided exact sign test: the chance of a split at least this uneven among `wins + losses` untied tasks under p = ½. */
export function signTestP(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const m = Math.min(wins, losses);
  // log C(n, i) built up term by term; the tail summed from its largest term down.
  let logC = 0;
  const logs: number[] = [];
  for (let i = 0; i <= m; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    logs.push(logC - n * Math.LN2);
  }
  const top = logs[logs.length - 1]!;
  const tail = Math.exp(top) * logs.reduce((s, l) => s + Math.exp(l - top), 0);
  return Math.min(1, 2 * tail);
}

/** Run A against run B over the tasks both hold, pass^1 per task. */
export interface PairedComparison {
  readonly tasks: number;
  /** Mean over shared tasks of A's pass^1 minus B's. */
  readonly diff: number;
  readonly lo: number;
  readonly hi: number;
  /** Tasks where A does better, worse, the same. */
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  readonly signP: number;
  /** `a`: A better (the interval lies above 0); `b`: B better (below 0); `none`: the interval holds 0. */
  readonly better: 'a' | 'b' | 'none';
  /** The larger noise floor (sd) of the two runs, null when neither has two trials. */
  readonly noise: number | null;
  /** |diff| is smaller than `noise`. */
  readonly withinNoise: boolean;
  /** Tasks only one of the runs holds (left out). */
  readonly onlyA: number;
  readonly onlyB: number;
}

/** The paired comparison's method in words. */
export const PAIRED_METHOD =
  `Paired by task: per task, A’s pass^1 minus B’s over the tasks both runs hold; the mean difference with a 95 % percentile ` +
  `bootstrap over those tasks (${thousands(BOOTSTRAP.resamples)} resamples, seed ${BOOTSTRAP.seed}) and an exact two-sided sign test ` +
  'on the tasks that differ. One run is called better only when the interval excludes 0.';

export function comparePaired(
  a: ReadonlyMap<string, TaskTally>,
  b: ReadonlyMap<string, TaskTally>,
  noiseA: NoiseFloor | null = null,
  noiseB: NoiseFloor | null = null,
): PairedComparison {
  const diffs: number[] = [];
  let wins = 0;
  let losses = 0;
  for (const [task, ta] of a) {
    const tb = b.get(task);
    if (tb === undefined || ta.n === 0 || tb.n === 0) continue;
    const d = ta.c / ta.n - tb.c / tb.n;
    diffs.push(d);
    if (d > 1e-12) wins++;
    else if (d < -1e-12) losses++;
  }
  const shared = diffs.length;
  const v = Float64Array.from(diffs);
  const diff = shared === 0 ? NaN : v.reduce((s, x) => s + x, 0) / shared;
  const [ci] = bootstrapMeans([v]);
  const better = shared === 0 ? 'none' : ci!.lo > 0 ? 'a' : ci!.hi < 0 ? 'b' : 'none';
  const noises = [noiseA?.sd, noiseB?.sd].filter((x): x is number => x !== undefined);
  const noise = noises.length === 0 ? null : Math.max(...noises);
  const onlyB = [...b.keys()].filter((t) => !a.has(t)).length;
  return {
    tasks: shared,
    diff,
    lo: ci!.lo,
    hi: ci!.hi,
    wins,
    losses,
    ties: shared - wins - losses,
    signP: signTestP(wins, losses),
    better,
    noise,
    withinNoise: noise !== null && Math.abs(diff) < noise,
    onlyA: [...a.keys()].filter((t) => !b.has(t)).length,
    onlyB,
  };
}
