/** A library of runs as columns: what `tau-inspect index` writes, read back by the app's worker and by the CLI. */

/** One run (one results file, or a τ² run folder) of a library, with what its rows share. */
export interface LibraryRun {
  /** The path as the index found it (the `file` column), or inside the picked folder. */
  readonly file: string;
  readonly benchmark: string;
  readonly domain: string | null;
  readonly model: string | null;
  readonly userModel: string | null;
  readonly dataVersion: string | null;
  readonly contentHash: string;
  /**
   * τ²: the run's `info.num_trials` (its pass^k goes up to it, or to the fewest trials any task has if fewer), null when
   * the file records none (and for τ-bench); absent when the index has no `num_trials` column (a runs.parquet written before it).
   */
  readonly numTrials?: number | null;
}

/** Bits of `LibraryTable.flags`. */
export const LIBRARY_FLAG = {
  /** The episode could not be judged (`error`): it counts 0 recomputed, as in the run's own overview. */
  error: 1,
  /** The task's reference actions leave the DB as it started (τ²'s `no-op-reference` finding). */
  noopReference: 2,
  /** τ²'s `infrastructure_error` termination: left out of τ²'s pass^k. */
  infrastructure: 4,
  /** The recomputed reward differs from the recorded one (`matches_recorded_reward` false). */
  disagree: 8,
  /** A reference (gold) action raised when replayed (τ²'s `gold-action-raises`; τ-bench: its observation is an error). */
  goldRaises: 16,
  /** Some required information (τ²'s communicate info, τ-bench's outputs) is in no tool output of the gold replay. */
  goldInfoUnseen: 32,
  /** An env assertion of the task fails on the gold replay itself (τ²). */
  goldAssertionFails: 64,
  /** `tau2 evaluate-trajs` would give this simulation another reward than the run was judged by (τ²'s `evaluate-trajs-differs`, #502). */
  evaluateTrajsDiffers: 128,
} as const;

/**
 * A library's rows, one per episode or simulation, column by column (typed arrays are transferred, not
 * copied): `run` indexes `runs`, `task` indexes `tasks` (-1: none), `trial` is -1 when there is none,
 * `recorded` and `reward` are NaN when there is none.
 */
export interface LibraryTable {
  readonly runs: readonly LibraryRun[];
  readonly tasks: readonly string[];
  readonly run: Int32Array;
  readonly index: Int32Array;
  readonly task: Int32Array;
  readonly trial: Int32Array;
  readonly recorded: Float64Array;
  readonly reward: Float64Array;
  readonly flags: Uint8Array;
  /**
   * What each row records it spent (NaN: not recorded, never 0): agent and user cost, duration in seconds, prompt and
   * completion tokens. Absent from a table read from an index written before these columns.
   */
  readonly spend?: Readonly<Record<SpendKey, Float32Array>>;
}

/** The spend columns, as the index names them. */
export const SPEND_KEYS = ['agent_cost', 'user_cost', 'duration', 'prompt_tokens', 'completion_tokens'] as const;
export type SpendKey = (typeof SPEND_KEYS)[number];

/** The finding kinds of the index's `finding_kinds` column that the library keeps, as flags. */
const FINDING_FLAGS: Readonly<Record<string, number>> = {
  'no-op-reference': LIBRARY_FLAG.noopReference,
  'gold-action-raises': LIBRARY_FLAG.goldRaises,
  'gold-info-unseen': LIBRARY_FLAG.goldInfoUnseen,
  'gold-assertion-fails': LIBRARY_FLAG.goldAssertionFails,
  'evaluate-trajs-differs': LIBRARY_FLAG.evaluateTrajsDiffers,
};

/** A row's flags from its finding kinds (those the library keeps). */
export function findingFlags(kinds: readonly unknown[] | null | undefined): number {
  let f = 0;
  for (const k of kinds ?? []) if (typeof k === 'string') f |= FINDING_FLAGS[k] ?? 0;
  return f;
}
