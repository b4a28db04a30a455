import type { EpisodeView } from '../view/episode-view';
import type { Tau2SimView } from '../view/tau2/sim-view';
import type { Tau2WhatIfView } from './tau2/what-if';

/**
 * The step cursor of an episode's screen, for either benchmark: a τ-bench episode's steps are its executed
 * actions (`view.steps`, numbered 0…n-1); a τ² simulation's are its messages other than tool results (numbered by
 * message index, tool messages shown with their calls). A step is one of these numbers; the cursor moves among them.
 */
type View = EpisodeView | Tau2SimView;

/** The episode's screen data under a what-if (τ²'s edited simulation is inside the what-if's answer). */
export const whatIfScreen = (w: EpisodeView | Tau2WhatIfView): View => (w.benchmark === 'tau2' ? w.view : w);

/** Every step of a view, in order. */
export function viewSteps(view: View): number[] {
  if (view.benchmark === 'tau2') return view.messages.filter((m) => m.role !== 'tool').map((m) => m.index);
  return view.steps.map((_, i) => i);
}

/** The step `step` names in this view: itself if it is one, else the last step before it, else the first (0 with none). */
export function stepAt(view: View, step: number | null): number {
  const steps = viewSteps(view);
  if (steps.length === 0) return 0;
  if (step === null) return steps[0]!;
  let at = steps[0]!;
  for (const s of steps) if (s <= step) at = s;
  return at;
}

export type StepMove = 'next' | 'prev' | 'first' | 'last';

/** The step a move leads to from `step`. */
export function movedStep(view: View, step: number, move: StepMove): number {
  const steps = viewSteps(view);
  if (steps.length === 0) return step;
  const at = steps.indexOf(stepAt(view, step));
  const to = move === 'first' ? 0 : move === 'last' ? steps.length - 1 : Math.max(0, Math.min(steps.length - 1, at + (move === 'next' ? 1 : -1)));
  return steps[to]!;
}

/** A τ-bench episode's view, or null for another benchmark's (what a τ-bench panel reads). */
export const tauBenchView = (v: View | Tau2WhatIfView | null | undefined): EpisodeView | null => (v?.benchmark === 'tau-bench' ? v : null);
/** A τ² simulation's view, or null for another benchmark's (what a τ² panel reads). */
export const tau2View = (v: View | null | undefined): Tau2SimView | null => (v?.benchmark === 'tau2' ? v : null);
/** A τ² what-if's answer, or null for another benchmark's. */
export const tau2WhatIfOf = (w: EpisodeView | Tau2WhatIfView | null | undefined): Tau2WhatIfView | null => (w?.benchmark === 'tau2' ? w : null);
