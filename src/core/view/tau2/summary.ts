/**
 * τ² simulations as overview rows: the same `EpisodeHeader` / `EpisodeSummary` as τ-bench episodes
 * (so the overview, its filters, sorting and notes serve both), with τ²'s own facts in `tau2`.
 */
import type { PyValue } from '../../py/value';
import { legacyTau2SimulationFingerprints, tau2SimulationFingerprint } from '../fingerprint';
import { recordedRewardOf } from '../../model/episode/episode-record';
import type { Tau2Run } from '../../model/episode/tau2/types';
import { comb } from '../pass-k';
import type { EpisodeHeader, EpisodeSummary, FingerprintedHeader } from '../summary';
import type { Tau2Report } from './report';
import { tau2Ignored } from './procedure';

export { TAU2_COMPONENTS, TAU2_TASK_KEY, type Tau2Component, type Tau2Reason, type Tau2RowFacts } from './row-facts';
import { TAU2_COMPONENTS, TAU2_TASK_KEY, type Tau2Component } from './row-facts';

/** How a verdict τ² would not give (it refuses the file for a field the verdict does not read) is marked: followed by `<field>: <pydantic's message>`. */
export const TAU2_WOULD_REFUSE = 'τ² would refuse this file: ';

/** Task ids of a run in a natural order: numbers by value first, then the rest by text. */
export function tau2TaskOrder(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort((x, y) => {
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    if (!Number.isNaN(nx)) return -1;
    if (!Number.isNaN(ny)) return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

/**
 * One header per simulation, its fingerprint not computed yet (`fingerprint` null: `tau2Fingerprint` gives it,
 * ~1.5 ms a simulation, so the app posts the rows first). `taskId` is a number as the overview needs it: the task
 * id itself when every id of the run is a decimal number (airline, retail), else the id's position in natural
 * order (telecom's ids are text); the τ² id is in `extra[TAU2_TASK_KEY]`.
 */
export function tau2Rows(run: Tau2Run): EpisodeHeader[] {
  const ids = tau2TaskOrder(run.simulations.map((s) => s.taskId));
  const numeric = ids.every((id) => /^\d{1,15}$/.test(id));
  const position = new Map(ids.map((id, i) => [id, i]));
  return run.simulations.map((s) => ({
    index: s.index,
    taskId: numeric ? Number(s.taskId) : (position.get(s.taskId) ?? null),
    trial: num(s.trial),
    ...recordedRewardOf(s.rewardInfo?.get('reward') as PyValue | undefined),
    // A full-duplex simulation's turns are its ticks (its messages are only the tool calls τ² derives from them).
    turns: s.fullDuplex ? (s.ticks?.length ?? 0) : s.messages.filter((m) => m.role !== 'system').length,
    problem: null,
    extra: { [TAU2_TASK_KEY]: s.taskId, termination_reason: s.terminationReason },
    fingerprint: null,
  }));
}

/** Simulation `i`'s fingerprint: notes are kept per simulation, by its content (see `tau2SimulationFingerprint`). */
export function tau2Fingerprint(run: Tau2Run, i: number): string {
  const s = run.simulations[i]!;
  return tau2SimulationFingerprint((run.tasks.get(s.taskId)?.raw ?? null) as PyValue | null, s.raw as PyValue);
}

/** Simulation `i`'s fingerprints of older formats, where they differ from today's (see `legacyTau2SimulationFingerprints`). */
export function tau2LegacyFingerprints(run: Tau2Run, i: number): string[] {
  const s = run.simulations[i]!;
  return legacyTau2SimulationFingerprints((run.tasks.get(s.taskId)?.raw ?? null) as PyValue | null, s.raw as PyValue);
}

/** `tau2Rows` with every fingerprint (the CLI, which has no screen to show rows on first). */
export function tau2Headers(run: Tau2Run): FingerprintedHeader[] {
  return tau2Rows(run).map((h, i) => ({ ...h, fingerprint: tau2Fingerprint(run, i) }));
}

const COMPONENT_TEXT: Record<Tau2Component, string> = {
  DB: 'the DB after the agent’s calls differs from the DB after the reference actions',
  ENV_ASSERTION: 'an env assertion does not hold on the final environment',
  ACTION: 'a reference action was not called with matching arguments',
  COMMUNICATE: 'an info the agent had to communicate is in no assistant message',
  NL_ASSERTION: 'an NL assertion was judged not met (by an LLM when the run was made; recorded, not recomputed)',
};

/** The overview row of a judged simulation. */
export function tau2Summary(r: Tau2Report): EpisodeSummary {
  const breakdown = r.reward_breakdown ?? {};
  const failed = (r.reward_basis ?? []).filter((c): c is Tau2Component => (TAU2_COMPONENTS as readonly string[]).includes(c) && (breakdown[c] ?? 1) < 1);
  const texts = [
    ...(r.premature ? [`ended prematurely (${r.termination_reason}): τ² gives 0 and runs no check`] : []),
    ...failed.map((c) => COMPONENT_TEXT[c]),
    ...(r.tau2_would_refuse !== null ? [`${TAU2_WOULD_REFUSE}${r.tau2_would_refuse}`] : []),
  ];
  const ignored = tau2Ignored(r.findings);
  return {
    index: r.index,
    reward: r.error === null ? r.reward : null,
    hypotheticalReward: null,
    done: !r.premature,
    doneBy: r.termination_reason,
    // The row's reason chips: premature end first, then failed basis components in basis order.
    reasons: [...(r.premature ? (['tau2:premature'] as const) : []), ...failed.map((c) => `tau2:${c}` as const)],
    reasonTexts: texts,
    error: r.error,
    strategy: null,
    stepsExecuted: r.tool_calls.length,
    diffCount: 0,
    outputsMissing: (r.communicate_checks ?? []).filter((c) => !c.met).map((c) => c.info),
    outputsTotal: r.communicate_checks?.length ?? 0,
    agrees: r.matches_recorded_reward,
    tau2: { failed, termination: r.termination_reason, premature: r.premature, ...(r.tau2_would_refuse !== null && { wouldRefuse: r.tau2_would_refuse }) },
    ...(ignored.length > 0 && { ignored }),
  };
}

/** A run's `info.num_trials` (the largest k of its pass^k), null when the file records none: what the overview and the runs index both use. */
export function tau2NumTrials(run: Tau2Run): number | null {
  const v = run.info.get('num_trials');
  return typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : null;
}

/**
 * τ²'s pass^k (metrics/agent_metrics.py `get_tasks_pass_hat_k`): infrastructure errors left out; a
 * success is a reward within 1e-6 of 1; for each task, C(successes, k) / C(its trials, k), averaged over
 * tasks, for k from 1 to `info.num_trials` or the fewest trials any task has, whichever is less.
 */
export function tau2PassHatK(
  outcomes: readonly { readonly task: string; readonly reward: number; readonly termination: string }[],
  numTrials: number | null,
): { k: number; value: number }[] {
  const per = new Map<string, { n: number; c: number }>();
  for (const o of outcomes) {
    if (o.termination === 'infrastructure_error') continue;
    const t = per.get(o.task) ?? { n: 0, c: 0 };
    t.n++;
    if (1 - 1e-6 <= o.reward && o.reward <= 1 + 1e-6) t.c++;
    per.set(o.task, t);
  }
  if (per.size === 0) return [];
  const maxK = Math.min(numTrials ?? Infinity, ...[...per.values()].map((t) => t.n));
  const out: { k: number; value: number }[] = [];
  for (let k = 1; k <= maxK; k++) {
    let sum = 0;
    for (const t of per.values()) sum += comb(t.c, k) / comb(t.n, k);
    out.push({ k, value: sum / per.size });
  }
  return out;
}
