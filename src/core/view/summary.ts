import type { RewardRule } from '../model/data/versions';
import type { EpisodeRecord } from '../model/episode/types';
import { agreesWithRecorded, finalReward, type EpisodeOutcome } from '../judge/evaluate';
import { reasons, type ReasonCode } from './explain';
import { episodeFingerprint } from './fingerprint';
import { TAU2_TASK_KEY, type Tau2Reason, type Tau2RowFacts } from './tau2/row-facts';

/** A reason an overview row shows (a chip, a filter): τ-bench's reason codes, τ²'s failed components and premature end. */
export type RowReason = ReasonCode | Tau2Reason;

/** What the overview shows of an episode before it is evaluated. */
export interface EpisodeHeader {
  readonly index: number;
  readonly taskId: number | null;
  readonly trial: number | null;
  readonly recordedReward: number | null;
  /** A recorded reward that is not a finite number, as shown (`NaN (not a number)`). */
  readonly recordedRewardText?: string;
  readonly turns: number;
  readonly problem: string | null;
  readonly extra: Readonly<Record<string, string>>;
  /**
   * sha256 of the canonical JSON of `{task, traj}`: the key notes are stored under (see `episodeFingerprint`);
   * null while it is not computed yet (the app's rows, τ-bench's and τ²'s, go out before their fingerprints, which `fingerprints` brings):
   * such a row has no notes yet, and none can be written on it.
   */
  readonly fingerprint: string | null;
  /**
   * The fingerprints of older formats (`FingerprintFormat`) where they differ from `fingerprint` and no other row of
   * the run had them: notes kept under them are this row's (`notesFor`). Set once every row is keyed.
   */
  readonly legacyFingerprints?: readonly string[];
}

/** A header whose fingerprint is known (the CLI's always are; the app's rows get theirs after they go out). */
export type FingerprintedHeader = EpisodeHeader & { readonly fingerprint: string };

/** The row's task as its benchmark names it: τ²'s task id (text in telecom), else the task number (`—` when there is none). */
export const taskLabel = (h: EpisodeHeader): string => h.extra[TAU2_TASK_KEY] ?? (h.taskId === null ? '—' : String(h.taskId));

/** How the episode ended, where its file records it (τ²'s `termination_reason`). */
export const rowEnding = (h: EpisodeHeader): string | undefined => h.extra.termination_reason;

/** One row of the overview after evaluation. */
export interface EpisodeSummary {
  readonly index: number;
  readonly reward: number | null;
  readonly hypotheticalReward: number | null;
  readonly done: boolean;
  readonly doneBy: string | null;
  readonly reasons: readonly RowReason[];
  /** The reasons in words (the CLI's "why" column, tooltips). */
  readonly reasonTexts: readonly string[];
  readonly error: string | null;
  readonly strategy: string | null;
  readonly stepsExecuted: number;
  readonly diffCount: number;
  readonly outputsMissing: readonly string[];
  readonly outputsTotal: number;
  /** Recomputed reward equals the recorded one (null when either is missing). */
  readonly agrees: boolean | null;
  /** A τ² simulation's own facts (failed basis components, termination); absent for τ-bench episodes. */
  readonly tau2?: Tau2RowFacts;
  /** What the reward ignores here, one entry per procedure finding, its kind in words (the overview counts them over the run); absent: none or not computed. */
  readonly ignored?: readonly string[];
}

/** An episode's header with its fingerprint not computed yet (null): `episodeHeader` without the hashing, for rows that get it later. */
export function unkeyedHeader(r: EpisodeRecord): EpisodeHeader {
  return {
    index: r.index,
    taskId: r.taskId,
    trial: r.trial,
    recordedReward: r.recordedReward,
    ...(r.recordedRewardText !== undefined && { recordedRewardText: r.recordedRewardText }),
    turns: r.traj.filter((m) => m.get('role') !== 'system').length,
    // Strings of their own already (see `readEpisode`): a header may outlive the episode's text.
    problem: r.problem,
    extra: r.extra,
    fingerprint: null,
  };
}

export function episodeHeader(r: EpisodeRecord): FingerprintedHeader {
  return { ...unkeyedHeader(r), fingerprint: episodeFingerprint(r) };
}

export function episodeSummary(o: EpisodeOutcome, rule: RewardRule): EpisodeSummary {
  if (!o.ok)
    return {
      index: o.record.index,
      reward: null,
      hypotheticalReward: null,
      done: false,
      doneBy: null,
      reasons: [],
      reasonTexts: [],
      error: o.error,
      strategy: null,
      stepsExecuted: 0,
      diffCount: 0,
      outputsMissing: [],
      outputsTotal: 0,
      agrees: null,
    };
  const ev = o.value;
  const verdict = ev.verdicts[rule];
  const reward = finalReward(ev, rule);
  const rs = reasons(verdict, ev.replay, ev.diff);
  return {
    index: ev.record.index,
    reward,
    hypotheticalReward: ev.replay.done ? null : verdict.reward,
    done: ev.replay.done,
    doneBy: ev.replay.doneBy,
    reasons: [...new Set(rs.map((r) => r.code))],
    reasonTexts: rs.map((r) => r.text),
    error: null,
    strategy: ev.strategy,
    stepsExecuted: ev.replay.steps.length,
    diffCount: ev.diff.length,
    outputsMissing: verdict.outputs?.checks.filter((c) => !c.found).map((c) => c.output) ?? [],
    outputsTotal: verdict.outputs?.checks.length ?? 0,
    agrees: agreesWithRecorded(ev.record.recordedReward, reward),
  };
}
