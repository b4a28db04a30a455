import type { Db, Domain } from '../model/data/db';
import { TOOLS } from '../model/domains/registry';
import { RESPOND } from '../model/episode/actions';
import type { Action } from '../model/episode/types';
import type { ExecutedStep } from '../env/replay';
import type { GroundTruth } from '../env/reward';
import { hashableStr } from '../py/hashable';
import type { PyValue } from '../py/value';
import { blameWrite, episodeWrites } from './blame';
import { pyJsonInline } from './display';
import { failed } from './procedure';

export type AlignmentMatch = 'same' | 'other-args' | 'missing' | 'extra';

export interface ArgDiff {
  readonly name: string;
  /** The agent's value (Python's number text kept); null where the agent did not pass it. */
  readonly agent: string | null;
  readonly reference: string | null;
}

export interface AlignmentPair {
  /** Index of the task's reference action (`info.task.actions`); null for an extra agent call. */
  readonly gold: number | null;
  /** Index into the replay's steps; null for a reference action the agent never called. */
  readonly step: number | null;
  readonly match: AlignmentMatch;
  readonly name: string;
  /** The tool can change the DB. */
  readonly write: boolean;
  /** The agent's call failed (`Error: …`) and changed nothing. */
  readonly failed: boolean;
  /** For `other-args`: the arguments that differ, one by one. */
  readonly args: readonly ArgDiff[];
}

export interface Alignment {
  /** In dialogue order: extra calls sit where the agent made them, missing reference actions after the pair before them. */
  readonly pairs: readonly AlignmentPair[];
  readonly firstDivergentWrite: { readonly gold: number | null; readonly step: number | null } | null;
  /** For each differing record: the last agent step and the last reference action whose call wrote it (changed or not). */
  readonly dbDiffs: readonly { readonly record: string; readonly step: number | null; readonly gold: number | null }[];
}

/**
 * Whether two argument values print alike as τ-bench's hashable form. Two scalars do exactly when they are the same
 * value of the same type (`repr` tells `1`, `1.0`, `True` and `'1'` apart, and `-0.0` from `0.0`; every NaN prints
 * `nan`): told without printing. A scalar never prints like a list or dict (those print as tuples).
 */
function same(a: PyValue | undefined, b: PyValue | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const scalarA = a === null || typeof a !== 'object';
  const scalarB = b === null || typeof b !== 'object';
  if (scalarA || scalarB) return scalarA && scalarB && typeof a === typeof b && Object.is(a, b);
  return hashableStr(a) === hashableStr(b);
}

/** Argument-by-argument differences between an agent call and a reference action. */
export function argDiffs(agent: Action, reference: Action): ArgDiff[] {
  const names = [...reference.kwargs.keys(), ...[...agent.kwargs.keys()].filter((k) => !reference.kwargs.has(k))];
  const out: ArgDiff[] = [];
  for (const name of names) {
    const a = agent.kwargs.get(name);
    const r = reference.kwargs.get(name);
    if (same(a, r)) continue;
    out.push({ name, agent: a === undefined ? null : pyJsonInline(a), reference: r === undefined ? null : pyJsonInline(r) });
  }
  return out;
}

/** No argument differs (`argDiffs` is empty), told without writing any out. */
function sameArgs(agent: Action, reference: Action): boolean {
  for (const [name, r] of reference.kwargs) if (!same(agent.kwargs.get(name), r)) return false;
  for (const name of agent.kwargs.keys()) if (!reference.kwargs.has(name)) return false;
  return true;
}

/**
 * Lines the agent's tool calls up against the task's reference actions: first every exact
 * match (same name and arguments), then, for the rest, the agent's call of the same tool that
 * succeeded and differs in the fewest arguments. Responds are not tool calls and are left out.
 */
export function alignActions(
  domain: Domain,
  initial: Db,
  steps: readonly ExecutedStep[],
  gold: readonly Action[],
  groundTruth: GroundTruth,
  diffRecords: readonly { readonly table: string; readonly key: string }[],
): Alignment {
  const calls = steps.filter((s) => s.action.name !== RESPOND);
  const goldIdx = gold.map((_, i) => i).filter((i) => gold[i]!.name !== RESPOND);
  const used = new Set<number>();
  const pairOf = new Map<number, AlignmentPair>();
  const writes = (name: string): boolean => TOOLS[domain].get(name)?.writes === true;
  const make = (g: number | null, s: ExecutedStep | null, match: AlignmentMatch, args: ArgDiff[] = []): AlignmentPair => ({
    gold: g,
    step: s?.index ?? null,
    match,
    name: s?.action.name ?? gold[g!]!.name,
    write: writes(s?.action.name ?? gold[g!]!.name),
    failed: s !== null && failed(s),
    args,
  });
  for (const g of goldIdx) {
    const ref = gold[g]!;
    const s = calls.find((c) => !used.has(c.index) && c.action.name === ref.name && sameArgs(c.action, ref));
    if (!s) continue;
    used.add(s.index);
    pairOf.set(g, make(g, s, 'same'));
  }
  for (const g of goldIdx) {
    if (pairOf.has(g)) continue;
    const ref = gold[g]!;
    let best: { s: ExecutedStep; diffs: ArgDiff[] } | null = null;
    for (const c of calls) {
      if (used.has(c.index) || c.action.name !== ref.name) continue;
      const diffs = argDiffs(c.action, ref);
      const better = best === null || (failed(best.s) && !failed(c)) || (failed(best.s) === failed(c) && diffs.length < best.diffs.length);
      if (better) best = { s: c, diffs };
    }
    if (best) {
      used.add(best.s.index);
      pairOf.set(g, make(g, best.s, 'other-args', best.diffs));
    } else pairOf.set(g, make(g, null, 'missing'));
  }
  const extras = calls.filter((c) => !used.has(c.index)).map((c) => make(null, c, 'extra'));
  const pairs: AlignmentPair[] = [];
  let e = 0;
  for (const g of goldIdx) {
    const p = pairOf.get(g)!;
    if (p.step !== null) while (e < extras.length && extras[e]!.step! < p.step) pairs.push(extras[e++]!);
    pairs.push(p);
  }
  while (e < extras.length) pairs.push(extras[e++]!);
  const divergent = pairs.find((p) => p.write && (p.match === 'missing' || p.match === 'other-args' || (p.match === 'extra' && !p.failed)));
  // Which call last wrote each differing record takes the episode's calls and its reference actions run again with
  // their writes tracked: worked out when read (the alignment panel, `explain`), not for a printed line or a row.
  let dbDiffs: Alignment['dbDiffs'] | undefined;
  const blame = (): Alignment['dbDiffs'] => {
    if (dbDiffs !== undefined) return dbDiffs;
    const w = diffRecords.length === 0 ? null : episodeWrites(domain, initial, steps, groundTruth.steps);
    return (dbDiffs = diffRecords.map((d) => ({
      record: `${d.table}/${d.key}`,
      step: blameWrite(w!.agent, d.table, d.key, []),
      gold: blameWrite(w!.reference, d.table, d.key, []),
    })));
  };
  return {
    pairs,
    firstDivergentWrite: divergent ? { gold: divergent.gold, step: divergent.step } : null,
    get dbDiffs() {
      return blame();
    },
  };
}
