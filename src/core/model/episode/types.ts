import type { PyDict, PyValue } from '../../py/value';

/** τ-bench's `Action(name, kwargs)`. */
export interface Action {
  readonly name: string;
  readonly kwargs: PyDict;
}

/** τ-bench's `Task` as recorded in `info.task`. */
export interface Task {
  readonly userId: PyValue;
  readonly actions: readonly Action[];
  readonly instruction: string;
  readonly outputs: readonly string[];
}

/** One element of a results file (`EnvRunResult`), checked at the boundary. */
export interface EpisodeRecord {
  /** Position in the file. */
  readonly index: number;
  readonly taskId: number | null;
  readonly trial: number | null;
  /** The recorded reward when it is a finite number (a bool or an int as a float); null otherwise. */
  readonly recordedReward: number | null;
  /** A recorded reward that is not a finite number, as shown: `NaN (not a number)`, `'1.0' (a str, not a number)`. */
  readonly recordedRewardText?: string;
  readonly task: Task | null;
  /** `info.reward_info` as recorded (null: the episode hit the step limit). */
  readonly recordedRewardInfo: PyDict | null;
  readonly traj: readonly PyDict[];
  /** `info.error` of a run that crashed. */
  readonly runError: string | null;
  /** Fields outside τ-bench's schema (e.g. `synthetic_kind`), for display. */
  readonly extra: Readonly<Record<string, string>>;
  /** Why this record cannot be evaluated, when it cannot. */
  readonly problem: string | null;
  /** The episode as parsed (Python values), e.g. to write it back out for sharing. */
  readonly raw: PyValue;
}

export type Strategy = 'tool-calling' | 'act' | 'react';

/** An agent turn turned into an action, with what the file recorded after it. */
export interface AgentStep {
  /** Index of the agent message in `traj`. */
  readonly messageIndex: number;
  /** The action τ-bench derives from the message; null when deriving it raises. */
  readonly action: Action | null;
  /** What τ-bench's agent would raise here (the run would have crashed). */
  readonly crash: string | null;
  /** Index of the message holding the observation (tool result or user turn), if any. */
  readonly observationIndex: number | null;
  /** The recorded observation: the tool result (without `API output: `) or the next user turn. */
  readonly recordedObservation: string | null;
}
