/** The plain data a session hands out: what was detected, data snapshots, views, and how much a session keeps. */
import type { Domain } from '../model/data/db';
import type { DataLabel, RewardRule } from '../model/data/versions';
import type { FileKind } from '../model/episode/results-file';
import type { DbWorkSnapshot } from '../judge/cache';
import type { HashEvidence, RewardEvidence } from '../judge/detect';
import type { EpisodeView } from '../view/episode-view';

/** What was detected about a file, each choice with the sentence saying why. */
export interface Detection {
  readonly domain: Domain;
  readonly domainWhy: string;
  readonly dataCommit: string;
  /** What the data version is, typed (worded by `describeData`). */
  readonly data: DataLabel;
  readonly dataSource: string;
  readonly versionWhy: string;
  /** The data version is final: every recorded gt_data_hash weighed (or the version given); until then provisional, from a sample. */
  readonly dataFinal: boolean;
  /** The provisional data version that the recorded hashes overturned (its verdicts were made again), else null. */
  readonly dataOverturned: string | null;
  /** Every recorded gt_data_hash weighed: the episodes each loaded version reproduces, and those none does (null until settled). */
  readonly hashes: HashEvidence | null;
  /** Every telling recorded reward: the episodes each rule fits (null until the rule is settled, or when it was given). */
  readonly rewards: RewardEvidence | null;
  readonly rule: RewardRule;
  readonly ruleWhy: string;
  /** The rule is provisional until every episode has been evaluated. */
  readonly ruleFinal: boolean;
  /** What the file is (a results list, a single episode, a bare message list). */
  readonly fileKind: FileKind;
  readonly fileKindText: string;
  /**
   * What is unusual about the file, in words, for the user: damage and where it is, recorded
   * values no τ-bench version produces and why (another evaluator, modified data, partial
   * credit), recorded rewards that disagree. Grows when the rule is settled.
   */
  readonly notes: readonly string[];
}

/**
 * A parsed data version and the session's work on it (hasher state, reference-replay
 * hashes) as plain structured-cloneable data, for a cache that outlives the session (the
 * worker keeps it in IndexedDB). Identify it by the content it was parsed from.
 */
export interface DataSnapshot {
  readonly domain: Domain;
  /** The DB; after structured cloning no longer frozen (`restoreVersion` freezes it again). */
  readonly db: unknown;
  readonly work: DbWorkSnapshot;
}

export type ViewResult = EpisodeView | { readonly error: string; readonly index: number };

/**
 * How much of a big file a session holds. By default everything read and evaluated stays (the
 * CLI, tests); the app's worker keeps a few evaluations and, per episode, only its overview rows
 * and what rule detection needs: an evaluation asked for again is recomputed (the same result).
 */
export interface SessionMemory {
  /** How many full evaluations (replays, diffs) to keep, the most recently used. */
  readonly keptEvaluations?: number;
  /** Work out every episode's header while the file is read (else `headers()` reads the episodes again). */
  readonly headers?: boolean;
  /**
   * With `headers`: the headers' fingerprints are left null (hashing every episode as it is read costs the reading
   * thread ~0.3 ms an episode); `InspectSession.fingerprint` computes one when it is wanted, from the episode's text.
   */
  readonly keysLater?: boolean;
  /** Where episodes are read again by UTF-8 byte range (a file's bytes), so the text need not stay (see `ReadOptions`). */
  readonly elementText?: (byteStart: number, byteEnd: number) => string;
  /** Where a position of the text is in the file's bytes, for damage notes (see `ReadOptions.byteOffset`). */
  readonly byteOffset?: (pos: number) => number;
}
