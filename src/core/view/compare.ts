import { isSuccess, passHatK, type PassK } from './pass-k';

/** One episode of a run as the comparison needs it (reward null: could not be evaluated, counts as a failure). */
export interface CompareOutcome {
  readonly index: number;
  readonly taskId: number | null;
  readonly trial: number | null;
  readonly reward: number | null;
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

export interface RunComparison {
  readonly tasks: readonly TaskComparison[];
  readonly passK: { readonly a: readonly PassK[]; readonly b: readonly PassK[] };
  readonly gained: number;
  readonly lost: number;
  /** Episodes without a task id (left out of the per-task table). */
  readonly withoutTask: { readonly a: number; readonly b: number };
}

const rate = (c: TrialCounts): number => (c.trials === 0 ? NaN : c.passes / c.trials);

/** Two runs on the same tasks, task by task (ascending task id), and pass^k of each. */
export function compareRuns(a: readonly CompareOutcome[], b: readonly CompareOutcome[]): RunComparison {
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
      if (o.reward !== null && isSuccess(o.reward)) t[side === 'a' ? 'ap' : 'bp']++;
    }
    return without;
  };
  const withoutTask = { a: add('a', a), b: add('b', b) };
  let gained = 0;
  let lost = 0;
  const rows: TaskComparison[] = [...tasks.entries()]
    .sort(([x], [y]) => x - y)
    .map(([taskId, t]) => {
      const ca = { trials: t.a.length, passes: t.ap };
      const cb = { trials: t.b.length, passes: t.bp };
      const ra = rate(ca);
      const rb = rate(cb);
      const flip = ra < 0.5 && rb > 0.5 ? 'gained' : ra > 0.5 && rb < 0.5 ? 'lost' : null;
      if (flip === 'gained') gained++;
      if (flip === 'lost') lost++;
      return { taskId, a: ca, b: cb, aIndices: t.a, bIndices: t.b, flip };
    });
  const pk = (list: readonly CompareOutcome[]) =>
    passHatK(list.filter((o) => o.taskId !== null).map((o) => ({ taskId: o.taskId!, trial: o.trial ?? 0, reward: o.reward ?? 0 })));
  return { tasks: rows, passK: { a: pk(a), b: pk(b) }, gained, lost, withoutTask };
}
