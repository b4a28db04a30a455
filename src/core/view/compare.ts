import type { DataLabel, RewardRule } from '../model/data/versions';
import { shortData } from './format';
import { isSuccess, passHatK, type PassK } from './pass-k';

/** How a run was judged: its domain, τ-bench data version and reward rule (a `Detection` is one). */
export interface RunJudging {
  readonly domain: string;
  readonly dataCommit: string;
  readonly data: DataLabel;
  readonly rule: RewardRule;
}

/** One way the two runs were judged apart; `a` and `b` as shown (a data version by `shortData`). */
export interface JudgedApart {
  readonly what: 'domain' | 'data' | 'rule';
  readonly a: string;
  readonly b: string;
}

/** What differs in how A and B were judged (domain, data version, rule); empty when judged alike. */
export function judgedApart(a: RunJudging, b: RunJudging): JudgedApart[] {
  const out: JudgedApart[] = [];
  if (a.domain !== b.domain) out.push({ what: 'domain', a: a.domain, b: b.domain });
  if (a.dataCommit !== b.dataCommit) out.push({ what: 'data', a: shortData(a.data), b: shortData(b.data) });
  if (a.rule !== b.rule) out.push({ what: 'rule', a: a.rule, b: b.rule });
  return out;
}

const RULES: readonly RewardRule[] = ['db-and-outputs', 'outputs-only'];

/** One episode of a run as the comparison needs it (reward null: could not be evaluated, counts as a failure). */
export interface CompareOutcome {
  readonly index: number;
  readonly taskId: number | null;
  readonly trial: number | null;
  readonly reward: number | null;
  /** τ-bench's reward under each rule, where known (an evaluated τ-bench episode): lets flips be counted with both runs under one rule. */
  readonly rewards?: Readonly<Record<RewardRule, number>> | null;
}

export interface TrialCounts {
  readonly trials: number;
  readonly passes: number;
}

export interface TaskComparison {
  readonly taskId: number;
  readonly a: TrialCounts;
  readonly b: TrialCounts;
  /** Episode indices of this task in each run, in file order (for drilling down). */
  readonly aIndices: readonly number[];
  readonly bIndices: readonly number[];
  /**
   * The task's majority verdict changed: passed in more than half of its trials in one run and
   * in less than half in the other ('gained': B passes it, A did not; 'lost': the reverse). With
   * one trial per task this is exactly pass ↔ fail. Tasks missing from one run never flip.
   */
  readonly flip: 'gained' | 'lost' | null;
}

/** Flips counted with both runs judged by one rule. */
export interface FlipCount {
  readonly rule: RewardRule;
  readonly gained: number;
  readonly lost: number;
}

export interface RunComparison {
  readonly tasks: readonly TaskComparison[];
  readonly passK: { readonly a: readonly PassK[]; readonly b: readonly PassK[] };
  /**
   * Tasks B now passes / no longer passes (and each task's `flip`), counted only where both runs
   * were judged by the same rule: `flipRule` names it. When A and B were judged by different rules
   * it is A's rule with B's episodes judged again by it (from `CompareOutcome.rewards`), or, when
   * that is not known, nothing is counted (`flipsCounted` false: 0, every `flip` null).
   */
  readonly gained: number;
  readonly lost: number;
  readonly flipsCounted: boolean;
  /** The rule both runs were judged by for the flips, when the caller said how each run was judged. */
  readonly flipRule: RewardRule | null;
  /** Where the runs were judged by different rules: the flips under each rule, both runs judged by it. */
  readonly flipsByRule: readonly FlipCount[];
  /** How A and B were judged apart (domain, data version, rule), when the caller said how each was judged. */
  readonly judgedApart: readonly JudgedApart[];
  /** Episodes without a task id (left out of the per-task table). */
  readonly withoutTask: { readonly a: number; readonly b: number };
}

const rate = (c: TrialCounts): number => (c.trials === 0 ? NaN : c.passes / c.trials);

/** Per task: trials and passes of each side, with each outcome's reward taken by `reward`. */
function tally(a: readonly CompareOutcome[], b: readonly CompareOutcome[], reward: (o: CompareOutcome) => number | null) {
  const tasks = new Map<number, { a: number[]; b: number[]; ap: number; bp: number }>();
  const add = (side: 'a' | 'b', list: readonly CompareOutcome[]): number => {
    let without = 0;
    for (const o of list) {
      if (o.taskId === null) {
        without++;
        continue;
      }
      let t = tasks.get(o.taskId);
      if (!t) tasks.set(o.taskId, (t = { a: [], b: [], ap: 0, bp: 0 }));
      t[side].push(o.index);
      const r = reward(o);
      if (r !== null && isSuccess(r)) t[side === 'a' ? 'ap' : 'bp']++;
    }
    return without;
  };
  const withoutTask = { a: add('a', a), b: add('b', b) };
  const rows = [...tasks.entries()].sort(([x], [y]) => x - y);
  return { rows, withoutTask };
}

const flipOf = (ca: TrialCounts, cb: TrialCounts): TaskComparison['flip'] => {
  const ra = rate(ca);
  const rb = rate(cb);
  return ra < 0.5 && rb > 0.5 ? 'gained' : ra > 0.5 && rb < 0.5 ? 'lost' : null;
};

/** Each task's flip with both runs judged by `rule` (null where an episode's reward under it is unknown). */
function flipsUnder(rule: RewardRule, a: readonly CompareOutcome[], b: readonly CompareOutcome[]): Map<number, TaskComparison['flip']> | null {
  if (![...a, ...b].every((o) => o.taskId === null || o.reward === null || o.rewards)) return null;
  const { rows } = tally(a, b, (o) => (o.reward === null ? null : o.rewards![rule]));
  return new Map(rows.map(([taskId, t]) => [taskId, flipOf({ trials: t.a.length, passes: t.ap }, { trials: t.b.length, passes: t.bp })]));
}

const count = (flips: ReadonlyMap<number, TaskComparison['flip']>, which: 'gained' | 'lost'): number => [...flips.values()].filter((f) => f === which).length;

/**
 * Two runs on the same tasks, task by task (ascending task id), and pass^k of each. Given how
 * each run was judged, the comparison says what differs (`judgedApart`) and counts flips only
 * with both runs under one rule (see `RunComparison.gained`).
 */
export function compareRuns(
  a: readonly CompareOutcome[],
  b: readonly CompareOutcome[],
  judging?: { readonly a: RunJudging; readonly b: RunJudging },
): RunComparison {
  const { rows: tallied, withoutTask } = tally(a, b, (o) => o.reward);
  const apart = judging ? judgedApart(judging.a, judging.b) : [];
  const sameRule = !judging || judging.a.rule === judging.b.rule;
  const byRule = sameRule
    ? []
    : RULES.flatMap((rule) => {
        const flips = flipsUnder(rule, a, b);
        return flips ? [{ rule, flips }] : [];
      });
  const common = sameRule ? null : (byRule.find((x) => x.rule === judging!.a.rule)?.flips ?? null);
  const flipsCounted = sameRule || common !== null;
  const rows: TaskComparison[] = tallied.map(([taskId, t]) => {
    const ca = { trials: t.a.length, passes: t.ap };
    const cb = { trials: t.b.length, passes: t.bp };
    const flip = sameRule ? flipOf(ca, cb) : (common?.get(taskId) ?? null);
    return { taskId, a: ca, b: cb, aIndices: t.a, bIndices: t.b, flip };
  });
  const pk = (list: readonly CompareOutcome[]) =>
    passHatK(list.filter((o) => o.taskId !== null).map((o) => ({ taskId: o.taskId!, trial: o.trial ?? 0, reward: o.reward ?? 0 })));
  return {
    tasks: rows,
    passK: { a: pk(a), b: pk(b) },
    gained: rows.filter((r) => r.flip === 'gained').length,
    lost: rows.filter((r) => r.flip === 'lost').length,
    flipsCounted,
    flipRule: flipsCounted && judging ? judging.a.rule : null,
    flipsByRule: byRule.map(({ rule, flips }) => ({ rule, gained: count(flips, 'gained'), lost: count(flips, 'lost') })),
    judgedApart: apart,
    withoutTask,
  };
}
