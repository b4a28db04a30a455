/**
 * Teaching mode ("judge it yourself"): one episode's checks as questions a student answers before the benchmark's
 * verdict is shown, and how their answers compare with it. A benchmark gives its sheet (`tau2TeachSheet` for a τ²
 * simulation); everything here is the same for every benchmark. Plain, structured-cloneable data.
 */
import { formatReward } from './format';

/** One check inside a component (an action, a communicate string, an assertion): what it asks, and the benchmark's answer. */
export interface TeachItem {
  readonly key: string;
  readonly asks: string;
  /** Said beside the question (an assertion's own message, the arguments compared). */
  readonly detail: string | null;
  /** The benchmark's answer (null: not judged). */
  readonly met: boolean | null;
  readonly evidence: string;
  /** Where the evidence is in the dialogue: a message, a call (null: nowhere in particular). */
  readonly message: number | null;
  readonly call: number | null;
}

/** A component of the reward: the student marks it met or not; its items may be marked too. */
export interface TeachComponent {
  readonly key: string;
  readonly name: string;
  readonly asks: string;
  /** What the student needs to judge it that is not a check of its own (the reference actions a DB check replays). */
  readonly context: readonly string[];
  readonly items: readonly TeachItem[];
  /** The task gives this component nothing to check (the benchmark counts it met). */
  readonly empty: boolean;
  /** The benchmark's value for it (1 met, 0 not; null: not judged). */
  readonly value: number | null;
  readonly evidence: string;
  /** The evidence in detail, shown after the reveal (a DB check's differing fields, each with the call that wrote it). */
  readonly proof: readonly string[];
  /** Where the evidence is in the dialogue (null: nowhere in particular). */
  readonly message: number | null;
  readonly call: number | null;
}

export interface TeachSheet {
  /** Who judges, as the screen names it (`τ²`, `τ-bench`). */
  readonly judge: string;
  /** The episode's task, as the benchmark names it ('' when its view does not say). */
  readonly task: string;
  /** How the reward is made of the components, in words. */
  readonly rule: string;
  readonly components: readonly TeachComponent[];
  /** Checks the benchmark made that are not in the reward (said after the reveal). */
  readonly outside: readonly string[];
  /** The verdict shown at the reveal: recomputed here (`recomputed`), or the file's record when nothing could be recomputed yet. */
  readonly reward: number | null;
  readonly recomputed: boolean;
  /** The reward the file records, as written. */
  readonly recorded: string;
  /** Why the benchmark gave its reward without the components (a run that stopped early, a simulation it could not judge); null: it judged them. */
  readonly before: string | null;
}

/** The student's answers: a component's or an item's key → met (true) or not (false); absent: not marked. */
export type TeachMarks = Readonly<Record<string, boolean>>;

export interface TeachDifference {
  readonly key: string;
  /** The component's or item's name as the sheet says it. */
  readonly what: string;
  readonly yours: boolean | null;
  readonly theirs: boolean | null;
  readonly evidence: string;
}

export interface TeachResult {
  /** The reward the student's component marks give (null: a component is not marked). */
  readonly yours: number | null;
  readonly marked: number;
  /** Components and (marked) items where the student and the benchmark differ, in the sheet's order. */
  readonly differences: readonly TeachDifference[];
  readonly summary: string;
}

const metOf = (value: number | null): boolean | null => (value === null ? null : value === 1);

/** How the student's marks compare with the benchmark's verdict. */
export function teachResult(sheet: TeachSheet, marks: TeachMarks): TeachResult {
  const differences: TeachDifference[] = [];
  let marked = 0;
  let yours: number | null = sheet.components.length === 0 ? null : 1;
  for (const c of sheet.components) {
    const mine = marks[c.key];
    if (mine === undefined) yours = null;
    else {
      marked++;
      if (yours !== null && !mine) yours = 0;
    }
    const theirs = metOf(c.value);
    if (mine === undefined || mine !== theirs) differences.push({ key: c.key, what: c.name, yours: mine ?? null, theirs, evidence: c.evidence });
    for (const i of c.items) {
      const m = marks[i.key];
      if (m !== undefined && m !== i.met) differences.push({ key: i.key, what: `${c.name}: ${i.asks}`, yours: m, theirs: i.met, evidence: i.evidence });
    }
  }
  const n = sheet.components.length;
  const who = `${sheet.judge} (${sheet.recomputed ? 'recomputed here' : 'as the file records it'})`;
  const rewards =
    yours === null
      ? `You did not mark every component (${marked} of ${n}); ${who} gives ${formatReward(sheet.reward)}.`
      : yours === sheet.reward
        ? `Your marks give ${formatReward(yours)}, as ${who} does.`
        : `Your marks give ${formatReward(yours)}; ${who} gives ${formatReward(sheet.reward)}.`;
  const count =
    differences.length === 0 ? 'You agree on every check you marked.' : `You differ on ${differences.length} check${differences.length === 1 ? '' : 's'}.`;
  return { yours, marked, differences, summary: `${rewards} ${count}` };
}
