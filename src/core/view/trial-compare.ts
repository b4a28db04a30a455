import type { AlignmentMatch, AlignmentPair, ArgDiff } from './alignment';

/**
 * Two trials of one task side by side: each trial's tool calls were aligned to the task's
 * reference actions (`alignActions`); here the two alignments are lined up by reference action
 * index, so row g holds what each trial did for reference action g. Calls that match no
 * reference action ("extra") stay after the reference action they followed in their trial;
 * within that gap, calls of the same tool on both sides share a row (in order).
 */

/** What `compareTrials` needs of an episode's view (an `EpisodeView` has all of it). */
export interface TrialInput {
  readonly index: number;
  readonly alignment: { readonly pairs: readonly AlignmentPair[] };
  readonly messages: { readonly length: number };
  readonly steps: readonly {
    readonly index: number;
    readonly messageIndex: number;
    readonly action: string;
    readonly kwargs: string;
    readonly exception: string | null;
  }[];
  readonly verdict: { readonly reward: number; readonly recordedReward: number | null; readonly sentence: string };
}

export interface TrialCell {
  readonly match: AlignmentMatch;
  /** The trial's step (index into its `steps`); null for a reference action it never called. */
  readonly step: number | null;
  /** The message of that step, for jumping to it in the trial's dialogue. */
  readonly messageIndex: number | null;
  readonly name: string;
  /** The arguments as the trial passed them (pretty-printed); null when it made no call. */
  readonly kwargs: string | null;
  readonly failed: boolean;
  readonly write: boolean;
  /** Where the call's arguments differ from the reference action's (empty for an extra call or a match). */
  readonly args: readonly ArgDiff[];
  /**
   * The trial's dialogue leading up to this call: messages `[before.from, before.to)` (what was
   * said since the previous row's call of this trial). Empty for a call made earlier in the
   * dialogue than the one above it (the agent did the reference actions out of order).
   */
  readonly before: { readonly from: number; readonly to: number };
}

export interface TrialRow {
  /** The reference action's index (`info.task.actions`); null for a row of extra calls. */
  readonly gold: number | null;
  readonly name: string;
  readonly a: TrialCell | null;
  readonly b: TrialCell | null;
  /** The two sides did the same thing here: both skipped it, or both called it with the same arguments and outcome. */
  readonly agree: boolean;
  /** The sides differ here in a call that could change the DB (see `parts`). */
  readonly apartOnWrite: boolean;
  /**
   * For a reference action both trials called: the arguments in which the two calls differ (each
   * call's differences from the reference compared; an argument neither changed is the reference's on both).
   */
  readonly argsApart: readonly string[];
}

export interface TrialComparison {
  readonly a: { readonly index: number; readonly reward: number; readonly recordedReward: number | null; readonly sentence: string };
  readonly b: { readonly index: number; readonly reward: number; readonly recordedReward: number | null; readonly sentence: string };
  readonly rows: readonly TrialRow[];
  /**
   * The first row where the two trials part on a write — a call that could change the DB, made
   * on one side and not the other, or with other arguments —, and why in words; null when they
   * write alike (reads may still differ: `readsApart`).
   */
  readonly parts: { readonly row: number; readonly why: string } | null;
  /** The first row where only reads differ (shown, not counted: τ-bench judges the DB), and how many such rows. */
  readonly readsApart: { readonly row: number; readonly why: string; readonly count: number } | null;
  /** Each trial's dialogue after its last call shown: messages from this index on. */
  readonly tail: { readonly a: number; readonly b: number };
}

const cellOf = (t: TrialInput, p: AlignmentPair): TrialCell => {
  const s = p.step === null ? undefined : t.steps[p.step];
  return {
    match: p.match,
    step: p.step,
    messageIndex: s?.messageIndex ?? null,
    name: p.name,
    kwargs: s?.kwargs ?? null,
    failed: p.failed,
    write: p.write,
    args: p.args,
    before: { from: 0, to: 0 },
  };
};

/** Per trial: the cell for each reference action, and the extra calls after each (key -1: before the first). */
function buckets(t: TrialInput): { gold: Map<number, TrialCell>; extras: Map<number, TrialCell[]> } {
  const gold = new Map<number, TrialCell>();
  const extras = new Map<number, TrialCell[]>();
  let last = -1;
  for (const p of t.alignment.pairs) {
    if (p.gold !== null) {
      gold.set(p.gold, cellOf(t, p));
      last = p.gold;
    } else {
      const list = extras.get(last) ?? [];
      list.push(cellOf(t, p));
      extras.set(last, list);
    }
  }
  return { gold, extras };
}

/** Same-tool calls of both sides paired in order (longest common subsequence by tool name); the rest alone. */
function zipExtras(xs: readonly TrialCell[], ys: readonly TrialCell[]): [TrialCell | null, TrialCell | null][] {
  const n = xs.length;
  const m = ys.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = xs[i]!.name === ys[j]!.name ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: [TrialCell | null, TrialCell | null][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && xs[i]!.name === ys[j]!.name) out.push([xs[i++]!, ys[j++]!]);
    else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push([xs[i++]!, null]);
    else out.push([null, ys[j++]!]);
  }
  return out;
}

const called = (c: TrialCell | null): c is TrialCell => c !== null && c.step !== null;
const sameCall = (x: TrialCell | null, y: TrialCell | null): boolean =>
  !called(x) ? !called(y) : called(y) && x.name === y.name && x.kwargs === y.kwargs && x.failed === y.failed;

function argsApart(gold: number | null, x: TrialCell | null, y: TrialCell | null): string[] {
  if (gold === null || !called(x) || !called(y)) return [];
  const ax = new Map(x.args.map((d) => [d.name, d.agent]));
  const ay = new Map(y.args.map((d) => [d.name, d.agent]));
  return [...new Set([...ax.keys(), ...ay.keys()])].filter((n) => !ax.has(n) || !ay.has(n) || ax.get(n) !== ay.get(n));
}

/** The call as the sentence names it: "cancel_pending_order (reference action 2)" or "an extra call of get_user_details". */
const what = (row: TrialRow): string => (row.gold === null ? `an extra call of ${row.name}` : `${row.name} (reference action ${row.gold + 1})`);

function apartWhy(row: TrialRow): string {
  const { a, b } = row;
  const one = (x: 'A' | 'B', cell: TrialCell, other: 'A' | 'B'): string =>
    row.gold === null
      ? `trial ${x} makes an extra call of ${row.name} at its step ${cell.step! + 1}, which trial ${other} does not make`
      : `trial ${x} calls ${what(row)} at its step ${cell.step! + 1}; trial ${other} never calls it`;
  if (called(a) && !called(b)) return one('A', a, 'B');
  if (!called(a) && called(b)) return one('B', b, 'A');
  const both = row.gold === null ? `both make an extra call of ${row.name}` : `both call ${what(row)}`;
  if (a!.failed !== b!.failed) return `${both}, but it fails in trial ${a!.failed ? 'A' : 'B'}`;
  const which = row.argsApart.length ? `: ${row.argsApart.join(', ')}` : '';
  return `${both} with different arguments${which} (trial A step ${a!.step! + 1}, trial B step ${b!.step! + 1})`;
}

/** A call that ran and could change the DB. */
const wrote = (c: TrialCell | null): boolean => called(c) && c.write && !c.failed;

/**
 * The two sides differ here in what they wrote: a call of a tool that writes, made (and not
 * failed) on at least one side. A difference in reads, or in write calls that failed on both
 * sides, changes no DB: τ-bench never counts it.
 */
const apartOnWrite = (row: Omit<TrialRow, 'apartOnWrite'>): boolean => !row.agree && (wrote(row.a) || wrote(row.b));

export function compareTrials(a: TrialInput, b: TrialInput): TrialComparison {
  const A = buckets(a);
  const B = buckets(b);
  const golds = [...new Set([...A.gold.keys(), ...B.gold.keys()])].sort((x, y) => x - y);
  const rows: TrialRow[] = [];
  const push = (gold: number | null, x: TrialCell | null, y: TrialCell | null): void => {
    const row = { gold, name: (x ?? y)!.name, a: x, b: y, agree: sameCall(x, y), apartOnWrite: false, argsApart: argsApart(gold, x, y) };
    rows.push({ ...row, apartOnWrite: apartOnWrite(row) });
  };
  const extrasAfter = (g: number): void => {
    for (const [x, y] of zipExtras(A.extras.get(g) ?? [], B.extras.get(g) ?? [])) push(null, x, y);
  };
  extrasAfter(-1);
  for (const g of golds) {
    push(g, A.gold.get(g) ?? null, B.gold.get(g) ?? null);
    extrasAfter(g);
  }
  // Each trial's dialogue cut at its calls, in row order: what was said before each call.
  const tail = { a: 0, b: 0 };
  for (const side of ['a', 'b'] as const) {
    let next = 0;
    for (let i = 0; i < rows.length; i++) {
      const cell = rows[i]![side];
      if (!called(cell) || cell.messageIndex === null) continue;
      const before = cell.messageIndex >= next ? { from: next, to: cell.messageIndex } : { from: next, to: next };
      rows[i] = { ...rows[i]!, [side]: { ...cell, before } };
      next = Math.max(next, cell.messageIndex + 1);
    }
    // eslint-disable-next-line local/no-computed-key-on-plain-object -- side is 'a' or 'b', never a key from a file
    tail[side] = next;
  }
  const at = rows.findIndex((r) => r.apartOnWrite);
  const readOnly = (r: TrialRow): boolean => !r.agree && !r.apartOnWrite;
  const read = rows.findIndex(readOnly);
  const side = (t: TrialInput): TrialComparison['a'] => ({
    index: t.index,
    reward: t.verdict.reward,
    recordedReward: t.verdict.recordedReward,
    sentence: t.verdict.sentence,
  });
  return {
    a: side(a),
    b: side(b),
    rows,
    parts: at < 0 ? null : { row: at, why: apartWhy(rows[at]!) },
    readsApart: read < 0 ? null : { row: read, why: apartWhy(rows[read]!), count: rows.filter(readOnly).length },
    tail,
  };
}
