import { findingFlags, LIBRARY_FLAG, SPEND_KEYS, type LibraryRun, type LibraryTable, type SpendKey } from './table';

/** One episode's row of a library, as read from a Parquet index or judged from a results file. */
export interface LibraryRow {
  readonly run: LibraryRun;
  readonly index: number;
  readonly task: string | null;
  readonly trial: number | null;
  readonly recorded: number | null;
  readonly reward: number | null;
  readonly error: boolean;
  readonly infrastructure: boolean;
  readonly disagree: boolean;
  /** The row's finding kinds (the index's `finding_kinds`): those the library keeps become flags (no-op reference, gold findings). */
  readonly findingKinds: readonly unknown[] | null;
  /** What the row records it spent (null or absent: not recorded). */
  readonly spend?: Partial<Readonly<Record<SpendKey, number | null>>>;
}

/** Rows gathered into the library's columns: each run and each task id once, the rest in typed arrays. */
export class TableBuilder {
  private readonly runs: LibraryRun[] = [];
  private readonly runIds = new Map<string, number>();
  private readonly tasks: string[] = [];
  private readonly taskIds = new Map<string, number>();
  private n = 0;
  private run: Int32Array;
  private index: Int32Array;
  private task: Int32Array;
  private trial: Int32Array;
  private recorded: Float64Array;
  private reward: Float64Array;
  private flags: Uint8Array;
  private spend: Record<SpendKey, Float32Array> | null = null;

  constructor(capacity = 1024) {
    const c = Math.max(1, capacity);
    this.run = new Int32Array(c);
    this.index = new Int32Array(c);
    this.task = new Int32Array(c);
    this.trial = new Int32Array(c);
    this.recorded = new Float64Array(c);
    this.reward = new Float64Array(c);
    this.flags = new Uint8Array(c);
  }

  get size(): number {
    return this.n;
  }

  private grow(): void {
    const c = this.run.length * 2;
    const more = <A extends Int32Array | Float64Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.run = more(this.run, (n) => new Int32Array(n));
    this.index = more(this.index, (n) => new Int32Array(n));
    this.task = more(this.task, (n) => new Int32Array(n));
    this.trial = more(this.trial, (n) => new Int32Array(n));
    this.recorded = more(this.recorded, (n) => new Float64Array(n));
    this.reward = more(this.reward, (n) => new Float64Array(n));
    this.flags = more(this.flags, (n) => new Uint8Array(n));
    if (this.spend) for (const k of SPEND_KEYS) this.spend[k] = grown(this.spend[k], c);
  }

  add(r: LibraryRow): void {
    if (this.n === this.run.length) this.grow();
    let run = this.runIds.get(r.run.file);
    if (run === undefined) {
      run = this.runs.length;
      this.runs.push(r.run);
      this.runIds.set(r.run.file, run);
    }
    let task = -1;
    if (r.task !== null) {
      task = this.taskIds.get(r.task) ?? -1;
      if (task < 0) {
        task = this.tasks.length;
        this.tasks.push(r.task);
        this.taskIds.set(r.task, task);
      }
    }
    const i = this.n++;
    if (r.spend) for (const k of SPEND_KEYS) this.spendColumn(k)[i] = r.spend[k] ?? NaN;
    this.run[i] = run;
    this.index[i] = r.index;
    this.task[i] = task;
    this.trial[i] = r.trial ?? -1;
    this.recorded[i] = r.recorded ?? NaN;
    this.reward[i] = r.reward ?? NaN;
    this.flags[i] =
      (r.error ? LIBRARY_FLAG.error : 0) |
      findingFlags(r.findingKinds) |
      (r.infrastructure ? LIBRARY_FLAG.infrastructure : 0) |
      (r.disagree ? LIBRARY_FLAG.disagree : 0);
  }

  /** A spend column, made (NaN throughout: nothing recorded) the first time a row records some spend. */
  private spendColumn(k: SpendKey): Float32Array {
    if (this.spend === null) {
      const c = this.run.length;
      const nan = (): Float32Array => new Float32Array(c).fill(NaN);
      this.spend = { agent_cost: nan(), user_cost: nan(), duration: nan(), prompt_tokens: nan(), completion_tokens: nan() };
    }
    return this.spend[k];
  }

  finish(): LibraryTable {
    const n = this.n;
    const spend = this.spend;
    return {
      ...(spend && { spend: Object.fromEntries(SPEND_KEYS.map((k) => [k, spend[k].slice(0, n)])) as Record<SpendKey, Float32Array> }),
      runs: this.runs,
      tasks: this.tasks,
      run: this.run.slice(0, n),
      index: this.index.slice(0, n),
      task: this.task.slice(0, n),
      trial: this.trial.slice(0, n),
      recorded: this.recorded.slice(0, n),
      reward: this.reward.slice(0, n),
      flags: this.flags.slice(0, n),
    };
  }
}

/** The typed arrays of a table, to transfer rather than copy. */
export const tableBuffers = (t: LibraryTable): ArrayBuffer[] =>
  [t.run, t.index, t.task, t.trial, t.recorded, t.reward, t.flags, ...(t.spend ? SPEND_KEYS.map((k) => t.spend![k]) : [])].map((a) => a.buffer as ArrayBuffer);

/** A Float32Array of `c` values holding `a`'s, NaN after them. */
function grown(a: Float32Array, c: number): Float32Array {
  const b = new Float32Array(c).fill(NaN);
  b.set(a);
  return b;
}
