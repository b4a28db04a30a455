/**
 * What a τ² simulation's overview row carries besides the fields every row has (core/view/summary.ts names it; this
 * file imports nothing, so the generic row and τ²'s rows do not import each other).
 */

/** The components of a τ² reward basis, as τ² names them. */
export type Tau2Component = 'DB' | 'ENV_ASSERTION' | 'ACTION' | 'COMMUNICATE' | 'NL_ASSERTION';
export const TAU2_COMPONENTS: readonly Tau2Component[] = ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'];

/** A τ² simulation's reason on its overview row: a failed basis component, or a premature end. */
export type Tau2Reason = `tau2:${Tau2Component}` | 'tau2:premature';

/** The key a τ² task id shows under in `EpisodeHeader.extra`. */
export const TAU2_TASK_KEY = 'tau2_task_id';

/** What an overview row of a τ² simulation shows besides a τ-bench row's fields. */
export interface Tau2RowFacts {
  /** Components of the task's reward basis whose reward is below 1 (in basis order). */
  readonly failed: readonly Tau2Component[];
  readonly termination: string;
  /** Ended otherwise than agent_stop/user_stop: τ² gives 0 and runs no check. */
  readonly premature: boolean;
  /** The verdict stands, but τ² refuses this file for a field the verdict does not read: `<field>: <pydantic's message>`. */
  readonly wouldRefuse?: string;
}
