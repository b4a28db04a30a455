/**
 * Two trials (simulations) of one τ² task side by side: what each did for each reference action, the
 * calls that match none, each check of the task (DB, env assertions, communicate infos, NL assertions)
 * and the DB records that differ from the gold DB on either side — and the first row where they part.
 * Plain data from two `Tau2SimView`s.
 */
import { formatReward } from '../format';
import type { Tau2CallView, Tau2SimView } from './sim-view';
import { callName, callNames } from './numbering';

export type Tau2TrialRowKind = 'action' | 'extra' | 'check' | 'db';

export interface Tau2TrialRow {
  readonly kind: Tau2TrialRowKind;
  /** The reference action, the tool, the check or the record, in words. */
  readonly name: string;
  /** What each trial did or got there, in words. */
  readonly a: string;
  readonly b: string;
  /** The two trials differ here. */
  readonly apart: boolean;
}

export interface Tau2TrialSide {
  readonly index: number;
  readonly trial: string;
  readonly reward: number;
  readonly termination: string;
}

export interface Tau2TrialComparison {
  readonly a: Tau2TrialSide;
  readonly b: Tau2TrialSide;
  readonly rows: readonly Tau2TrialRow[];
  /**
   * The first row where they part on an action, a write or the DB record (checks follow from those), and
   * why; else the first check they get apart (`onWrite` false: the same writes, another outcome, e.g. an
   * info one of them never said); null when every row agrees.
   */
  readonly parts: { readonly row: number; readonly why: string; readonly onWrite: boolean } | null;
}

const side = (v: Tau2SimView): Tau2TrialSide => ({ index: v.index, trial: v.trial, reward: v.reward, termination: v.termination });
const callsOf = (v: Tau2SimView): Tau2CallView[] => v.messages.flatMap((m) => m.calls);
const metText = (met: boolean | null): string => (met === null ? 'not judged' : met ? 'met' : 'not met');

/** What a trial did for reference action `k`. */
function actionText(v: Tau2SimView, k: number): string {
  const a = v.actions?.[k];
  if (!a) return '—';
  if (a.match) return a.matchedCall === null ? 'called' : `called (${callName(a.matchedCall)})`;
  return a.sameName.length ? `called with other arguments (${callNames(a.sameName)})` : 'never called';
}

/** Calls that matched no reference action, counted by tool (and whether such a call writes). */
function extras(v: Tau2SimView): Map<string, { n: number; writes: boolean }> {
  const matched = new Set((v.actions ?? []).flatMap((a) => (a.matchedCall === null ? [] : [a.matchedCall])));
  const out = new Map<string, { n: number; writes: boolean }>();
  for (const c of callsOf(v)) {
    if (matched.has(c.index)) continue;
    const key = `${c.requestor === 'user' ? '(user) ' : ''}${c.name}`;
    const e = out.get(key) ?? { n: 0, writes: false };
    out.set(key, { n: e.n + 1, writes: e.writes || c.mutating });
  }
  return out;
}

const recordKey = (d: { db: string; table: string; key: string | null }): string => `${d.db} DB ${d.table}${d.key === null ? '' : `/${d.key}`}`;

export function compareTau2Trials(a: Tau2SimView, b: Tau2SimView): Tau2TrialComparison {
  const rows: Tau2TrialRow[] = [];
  const writes: number[] = [];
  const actions = a.actions ?? b.actions ?? [];
  actions.forEach((x, k) => {
    const ta = actionText(a, k);
    const tb = actionText(b, k);
    const apart = (a.actions?.[k]?.match ?? false) !== (b.actions?.[k]?.match ?? false);
    if (apart) writes.push(rows.length);
    rows.push({ kind: 'action', name: `${x.requestor === 'user' ? '(user) ' : ''}${x.name} ${x.arguments}`, a: ta, b: tb, apart });
  });
  const ea = extras(a);
  const eb = extras(b);
  for (const name of [...new Set([...ea.keys(), ...eb.keys()])].sort()) {
    const na = ea.get(name)?.n ?? 0;
    const nb = eb.get(name)?.n ?? 0;
    const apart = na !== nb;
    if (apart && (ea.get(name)?.writes || eb.get(name)?.writes)) writes.push(rows.length);
    rows.push({ kind: 'extra', name, a: na ? `${na}×` : '—', b: nb ? `${nb}×` : '—', apart });
  }
  if (a.db || b.db) {
    const ma = a.db?.match ?? null;
    const mb = b.db?.match ?? null;
    rows.push({
      kind: 'check',
      name: 'DB check',
      a: ma === null ? 'not run' : ma ? 'matches gold' : 'differs',
      b: mb === null ? 'not run' : mb ? 'matches gold' : 'differs',
      apart: ma !== mb,
    });
  }
  const checks = (pick: (v: Tau2SimView) => readonly { readonly met: boolean | null }[] | null, label: (k: number) => string): void => {
    const n = Math.max(pick(a)?.length ?? 0, pick(b)?.length ?? 0);
    for (let k = 0; k < n; k++) {
      const x = pick(a)?.[k]?.met ?? null;
      const y = pick(b)?.[k]?.met ?? null;
      rows.push({ kind: 'check', name: label(k), a: metText(x), b: metText(y), apart: x !== y });
    }
  };
  const ref = a.envAssertions ?? b.envAssertions ?? [];
  checks(
    (v) => v.envAssertions,
    (k) => `env assertion ${ref[k]?.func ?? k} ${ref[k]?.arguments ?? ''}`,
  );
  const infos = a.communicate ?? b.communicate ?? [];
  checks(
    (v) => v.communicate,
    (k) => `communicate “${infos[k]?.info ?? k}”`,
  );
  const nl = a.nl ?? b.nl ?? [];
  checks(
    (v) => v.nl,
    (k) => `NL assertion (recorded) “${nl[k]?.assertion ?? k}”`,
  );
  const da = new Map((a.db?.diff ?? []).map((d) => [recordKey(d), d]));
  const db = new Map((b.db?.diff ?? []).map((d) => [recordKey(d), d]));
  for (const key of [...new Set([...da.keys(), ...db.keys()])].sort()) {
    const x = da.get(key);
    const y = db.get(key);
    const words = (d: typeof x): string => (d ? `differs from gold (${d.fields.map((f) => f.path).join(', ') || 'the record'})` : 'as gold');
    const apart = !x !== !y || (x !== undefined && y !== undefined && x.predicted !== y.predicted);
    if (apart) writes.push(rows.length);
    rows.push({ kind: 'db', name: key, a: words(x), b: words(y), apart });
  }
  const firstWrite = writes.length ? Math.min(...writes) : null;
  const firstAny = rows.findIndex((x) => x.apart);
  const first = firstWrite ?? (firstAny < 0 ? null : firstAny);
  const r = first === null ? null : rows[first]!;
  const why =
    r === null
      ? null
      : r.kind === 'action'
        ? `reference action ${r.name}: A ${r.a}, B ${r.b}`
        : r.kind === 'extra'
          ? `calls of ${r.name} that match no reference action: A ${r.a}, B ${r.b}`
          : `${r.name}: A ${r.a}, B ${r.b}`;
  return {
    a: side(a),
    b: side(b),
    rows,
    parts:
      first === null || why === null
        ? null
        : { row: first, why: `${why} (rewards ${formatReward(a.reward)} and ${formatReward(b.reward)})`, onWrite: firstWrite !== null },
  };
}
