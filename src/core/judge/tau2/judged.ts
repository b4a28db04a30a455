/**
 * A simulation judged as its run was judged when it was made (`ctx.solo`, `ctx.strict`: the run's `judging.runTime`),
 * and — where `tau2 evaluate-trajs` v1.0.1's rules (`ctx.evaluateTrajs`) would give another verdict — that verdict
 * beside it (`Tau2Evaluation.evaluateTrajs`), recomputed under its rules: never a silent switch (#502).
 */
import type { Tau2Simulation, Tau2Task } from '../../model/episode/tau2/types';
import { judgeTau2, type Tau2Context, type Tau2Evaluation } from './evaluate';

/** Judges one simulation by `ctx`'s rules, with evaluate-trajs' verdict where it differs; never throws. */
export function evaluateTau2(ctx: Tau2Context, task: Tau2Task | null, sim: Tau2Simulation): Tau2Evaluation {
  const e = judgeTau2(ctx, task, sim);
  const other = ctx.evaluateTrajs;
  if (other === undefined) return e;
  const rules: ('solo' | 'lenient')[] = [];
  if (other.solo !== ctx.solo) rules.push('solo');
  // The lenient replay reaches the state the strict one does: it differs only where the strict one raised.
  if (e.strictRaises !== undefined && !other.strict) rules.push('lenient');
  if (rules.length === 0) return e;
  const { evaluateTrajs: _, ...rest } = ctx;
  const alt = judgeTau2({ ...rest, solo: other.solo, strict: other.strict }, task, sim);
  const reward = (x: Tau2Evaluation): number | null => (x.error === null ? x.reward : null);
  if (reward(alt) === reward(e) && alt.error === e.error) return e;
  return { ...e, evaluateTrajs: { reward: reward(alt), error: alt.error, rules } };
}
