/**
 * τ²'s strict replay (`Environment.set_state(strict=True)`, how every τ² version judges a simulation when the run is
 * made) against the lenient one `tau2 evaluate-trajs` v1.0.1 uses: both reach the same state; strict raises at the
 * first replayed write whose output differs from the recorded tool message, and the simulation gets no verdict.
 */
import type { ReplayMismatch } from '../../env/tau2/environment';

/** Where a strict replay raised: the call (index among the replay's calls, tool), and whether in the task's message history on the gold environment. */
export interface StrictRaise {
  readonly index: number;
  readonly name: string;
  readonly gold: boolean;
}

/** What `tau2 evaluate-trajs` gives where it differs from the verdict as the run was judged. */
export interface EvaluateTrajsVerdict {
  /** Its reward; null when it gives none (`error`). */
  readonly reward: number | null;
  readonly error: string | null;
  /** Which of its rules differ here: `solo` (is_solo_mode decides otherwise), `lenient` (it logs what the strict replay raised at). */
  readonly rules: readonly ('solo' | 'lenient')[];
}

/** The error a strict replay raises with, or null when every replayed write agrees with its recorded output. */
export function strictReplayError(predicted: ReplayMismatch | null, goldHistory: ReplayMismatch | null): { error: string; at: StrictRaise } | null {
  const at = predicted !== null ? { ...predicted, gold: false } : goldHistory !== null ? { ...goldHistory, gold: true } : null;
  if (at === null) return null;
  // The words are tau-inspect's (τ² prints the call and both tool messages).
  const where = at.gold ? `the task's message history, call ${at.index}` : `call ${at.index}`;
  return {
    error: `ValueError: strict replay (as τ² judges when the run is made): ${where} (${at.name}) replays to an output that differs from the recorded tool message`,
    at,
  };
}
