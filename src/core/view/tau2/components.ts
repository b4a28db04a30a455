/**
 * The verdict as τ² computes it, component by component, for the checks panel: the task's `reward_basis` first
 * (in its order), each with the value τ² multiplies and its evidence — or why τ² counts 1 when the task gives
 * the component nothing to check (τ²'s evaluators score an empty criterion 1.0: "No communicate_info to
 * evaluate") —, then the checks outside the basis, which do not count. Read from the simulation's view.
 */
import type { Tau2SimView } from './sim-view';
import { callName, messageName } from './numbering';
import { NOT_IN_REWARD } from './explain';

export { NOT_IN_REWARD };

export type Tau2ComponentName = 'DB' | 'ENV_ASSERTION' | 'ACTION' | 'COMMUNICATE' | 'NL_ASSERTION';

export interface Tau2ComponentLine {
  readonly component: Tau2ComponentName;
  readonly inBasis: boolean;
  /** What τ² multiplies (in the basis), or what the check would give (outside it); null: not judged. */
  readonly value: number | null;
  readonly evidence: string;
  /** The task gives this component nothing to check. */
  readonly empty: boolean;
}

const ORDER: readonly Tau2ComponentName[] = ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'];
const short = (h: string | null): string => (h === null ? '—' : h.slice(0, 12));
const counted = (what: string): string => `the task has no ${what}, so τ² counts 1`;

function line(v: Tau2SimView, k: Tau2ComponentName): Omit<Tau2ComponentLine, 'component' | 'inBasis'> | null {
  switch (k) {
    case 'DB': {
      const db = v.db;
      if (db === null) return { value: 1, empty: true, evidence: `${counted('reference actions and no env assertions')} (no environment is built)` };
      if (v.recordedOnly)
        return {
          value: db.match === null ? null : db.match ? 1 : 0,
          empty: false,
          evidence: `as recorded: the DBs ${db.match === null ? 'were not compared' : db.match ? 'matched' : 'differed'} (db_check; the hashes and the differing records come with τ²’s data)`,
        };
      const h = db.hashes;
      const user = h.goldUser !== null || h.predictedUser !== null ? `; user DB gold ${short(h.goldUser)}, predicted ${short(h.predictedUser)}` : '';
      const hashes = `agent DB gold ${short(h.goldAgent)}, predicted ${short(h.predictedAgent)}${user}`;
      if (db.nondeterministic)
        return { value: db.match ? 1 : 0, empty: false, evidence: `${hashes}: a tool drew a random id, no one can reproduce these hashes` };
      const blamed = [...new Set(db.diff.flatMap((d) => d.blame))].sort((a, b) => a - b);
      return {
        value: db.match ? 1 : 0,
        empty: false,
        evidence: db.match
          ? `${hashes}: the same`
          : `${hashes}: ${db.diff.length} record(s) differ${blamed.length > 0 ? `, written by ${blamed.map(callName).join(', ')}` : ''}`,
      };
    }
    case 'ENV_ASSERTION': {
      const a = v.envAssertions ?? [];
      if (a.length === 0) return v.basis?.includes(k) ? { value: 1, empty: true, evidence: counted('env_assertions') } : null;
      const bad = a.filter((x) => !x.met);
      return {
        value: bad.length === 0 ? 1 : 0,
        empty: false,
        evidence: `${a.length - bad.length} of ${a.length} met${bad.length > 0 ? `; ${bad.map((x) => `${x.func}: expected ${x.expected}, actual ${x.actual}`).join('; ')}` : ''}`,
      };
    }
    case 'ACTION': {
      const a = v.actions ?? [];
      if (a.length === 0) return v.basis?.includes(k) ? { value: 1, empty: true, evidence: counted('reference actions') } : null;
      const bad = a.filter((x) => !x.match);
      return {
        value: bad.length === 0 ? 1 : 0,
        empty: false,
        evidence: `${a.length - bad.length} of ${a.length} called as written${bad.length > 0 ? `; never called: ${bad.map((x) => x.name).join(', ')}` : ''}`,
      };
    }
    case 'COMMUNICATE': {
      const c = v.communicate ?? [];
      if (c.length === 0) return v.basis?.includes(k) ? { value: 1, empty: true, evidence: counted('communicate_info') } : null;
      return {
        value: c.every((x) => x.met) ? 1 : 0,
        empty: false,
        evidence: c.map((x) => `'${x.info}' ${x.met && x.messageIndex !== null ? `said in ${messageName(x.messageIndex)}` : 'never said'}`).join('; '),
      };
    }
    case 'NL_ASSERTION': {
      const c = v.nl ?? [];
      if (c.length === 0) return v.basis?.includes(k) ? { value: 1, empty: true, evidence: counted('nl_assertions') } : null;
      const met = c.filter((x) => x.met === true).length;
      return { value: met === c.length ? 1 : 0, empty: false, evidence: `${met} of ${c.length} met (judged by an LLM when the run was made, as recorded)` };
    }
  }
}

/** The components of one simulation's verdict: the basis first (its order), then the others. Empty for a simulation τ² did not judge. */
export function tau2Components(v: Tau2SimView): Tau2ComponentLine[] {
  if (v.premature || v.error !== null || v.basis === null) return [];
  const basis = v.basis.filter((k): k is Tau2ComponentName => (ORDER as readonly string[]).includes(k));
  const out: Tau2ComponentLine[] = [];
  for (const k of [...basis, ...ORDER.filter((x) => !basis.includes(x))]) {
    const l = line(v, k);
    if (l === null) continue;
    const inBasis = basis.includes(k);
    if (!inBasis && l.empty) continue;
    out.push({ component: k, inBasis, ...l, value: inBasis ? (v.breakdown?.[k] ?? l.value) : l.value });
  }
  return out;
}
