/**
 * The wire contract: everything the worker, the store, the features, the app and the CLI may
 * take from core. Views, summaries and detections are plain structured-cloneable data; the
 * worker messages are below. Lint forbids importing any other core file from outside core.
 */
export type { Domain } from './model/data/db';
export { DOMAINS, DOMAIN_TABLES } from './model/data/db';
export { toolCatalog } from './model/domains/registry';
export type { DataVersion, ReadText, RewardRule } from './model/data/versions';
export { DEFAULT_DATA_BASE, KNOWN_DATA_VERSIONS, PINNED_COMMIT, dataPath, shortCommit } from './model/data/versions';
export { ResultsFileError } from './model/episode/results-file';
export type { Span } from './env/output-match';
export { EvaluationSetupError, guessDataCommitFromText, guessDomainFromText, type FileOptions } from './judge/detect';
export type {
  Elsewhere,
  EpisodeView,
  FieldChangeView,
  MessageView,
  OutputView,
  RecordChangeView,
  RecordDiffView,
  ReferenceStepView,
  RecordLine,
  StepView,
  ToolCallView,
  VerdictView,
} from './view/episode-view';
export type { NearKind, NearSaid } from './view/near-outputs';
export type { Reason, ReasonCode } from './view/explain';
export type { Finding, FindingKind } from './view/findings';
export type { Alignment, AlignmentMatch, AlignmentPair, ArgDiff } from './view/alignment';
export type { WalkthroughLine } from './view/walkthrough';
export type { EpisodeHeader, EpisodeSummary } from './view/summary';
export type { TranscriptView } from './view/transcript';
export type { EpisodeReport } from './view/report-json';
export { formatReward, RULE_TEXT } from './view/format';
export { InspectSession, type DataSnapshot, type Detection, type SessionReader, type StepEdit, type ViewResult } from './session/session';
export type { DbWorkSnapshot } from './judge/cache';
export { sha256Hex } from './py/hash';
export type { WhatIfInfo } from './view/episode-view';
export { prepareSha256 } from './py/sha256';
export { TAU2_DEFAULT_DATA_BASE, TAU2_PINNED_COMMIT } from './model/data/tau2-data';
export { readTau2Folder, readTau2Text, Tau2FileError } from './model/episode/tau2-results';
export type { Tau2Run } from './model/episode/tau2-types';
export { Tau2Session, Tau2SetupError, type LoadedDbs } from './session/tau2-session';
export { tau2ReportParts } from './session/tau2-report';
export type { Tau2Report } from './view/tau2/report';
export type { Tau2Finding } from './view/tau2/findings';

import type { Domain } from './model/data/db';
import type { EpisodeView } from './view/episode-view';
import type { EpisodeHeader, EpisodeSummary } from './view/summary';
import type { TranscriptView } from './view/transcript';
import type { Detection, StepEdit } from './session/session';
import type { EpisodeNotes } from './view/notes';

/** A file handed over by the page (a DOM `File`; core needs only this much of it). */
export interface FileLike {
  readonly name: string;
  readonly size: number;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Where a results file comes from. */
export type RunSource =
  | { readonly kind: 'sample'; readonly name: string }
  | { readonly kind: 'file'; readonly file: FileLike }
  /** The last local file opened, kept in this browser so a reload finds it again. */
  | { readonly kind: 'stored'; readonly name: string }
  | { readonly kind: 'url'; readonly url: string }
  /** One episode carried in a link (`#ep=`): deflated JSON, base64url, decoded in the worker with a size cap. */
  | { readonly kind: 'shared'; readonly payload: string };

/** A file of a picked or dropped tau-bench folder, with its path inside that folder. */
export interface FolderFile {
  readonly path: string;
  readonly file: FileLike;
}

/** How the data was obtained, for the header. */
export interface DataOrigin {
  readonly kind: 'sample' | 'folder' | 'dev' | 'url' | 'cache';
  readonly label: string;
}

/** Data the worker needs and does not have: the user picks a folder or agrees to fetch. */
export interface DataRequest {
  readonly domain: Domain;
  readonly suggestedBase: string;
  readonly files: readonly string[];
  readonly reason: string;
}

export interface DataProgress {
  readonly label: string;
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
}

export type ToWorker =
  | { readonly type: 'init'; readonly devDataUrl: string }
  /** Opening a run stops the evaluation of the one open before (it resumes if this one cannot be opened). */
  | { readonly type: 'open-run'; readonly run: number; readonly source: RunSource }
  /** A second run opened beside the open one (to compare them); evaluated on its own, with its own run id. */
  | { readonly type: 'open-compare'; readonly run: number; readonly source: RunSource }
  /** Drops the second run. */
  | { readonly type: 'close-compare' }
  /**
   * The offline report of a run (`sessionReportHtml`, as the CLI's `report`): evaluates every episode
   * first. `notes`: the notes of its episodes (matched by fingerprint in the worker).
   */
  | { readonly type: 'report'; readonly run: number; readonly id: number; readonly title: string; readonly notes: readonly EpisodeNotes[] }
  /** Stop evaluating this run (what is evaluated stays; views are still answered). */
  | { readonly type: 'cancel'; readonly run: number }
  /** Go on evaluating a run stopped by `cancel` (from where it stopped). */
  | { readonly type: 'resume'; readonly run: number }
  | { readonly type: 'use-folder'; readonly name: string; readonly files: readonly FolderFile[] }
  /** The user agreed to fetch data from this URL base (or a link carried it). */
  | { readonly type: 'use-data-url'; readonly base: string }
  /** Rows on screen, evaluated before the rest. */
  | { readonly type: 'prioritize'; readonly run: number; readonly indices: readonly number[] }
  | { readonly type: 'search'; readonly run: number; readonly id: number; readonly query: string }
  | { readonly type: 'view'; readonly run: number; readonly id: number; readonly index: number }
  /** The dialogue as recorded, answered from the parsed file alone (no data needed). */
  | { readonly type: 'transcript'; readonly run: number; readonly index: number }
  /** One episode as JSON text, to embed in a link. */
  | { readonly type: 'episode-json'; readonly run: number; readonly index: number }
  /** Replay an episode with edited or removed actions. */
  | { readonly type: 'what-if'; readonly run: number; readonly id: number; readonly index: number; readonly edits: readonly StepEdit[] };

export type FromWorker =
  | { readonly type: 'samples'; readonly names: readonly string[] }
  /** How much of a results file has been read (a big file takes seconds); `total` null when unknown. */
  | { readonly type: 'run-progress'; readonly run: number; readonly loaded: number; readonly total: number | null }
  | {
      readonly type: 'run-opened';
      readonly run: number;
      readonly label: string;
      readonly domain: Domain;
      readonly domainWhy: string;
      readonly headers: readonly EpisodeHeader[];
      /** A shared link's context line (JSON text, untrusted: file name, index, step, notes, edits). */
      readonly shared?: string;
    }
  /** The run could not be opened; whatever was open before stays open. */
  | { readonly type: 'run-error'; readonly run: number; readonly label: string; readonly message: string }
  | ({ readonly type: 'data-needed'; readonly run: number } & DataRequest)
  | ({ readonly type: 'data-progress'; readonly run: number } & DataProgress)
  | { readonly type: 'data-error'; readonly run: number; readonly message: string }
  /** `reset`: the data changed, earlier summaries no longer hold. */
  | { readonly type: 'detection'; readonly run: number; readonly detection: Detection; readonly origin: DataOrigin; readonly reset: boolean }
  /** Newly evaluated rows (or all rows again after the rule changed). */
  | { readonly type: 'summaries'; readonly run: number; readonly summaries: readonly EpisodeSummary[]; readonly evaluated: number; readonly total: number; readonly replace: boolean }
  | { readonly type: 'search-result'; readonly run: number; readonly id: number; readonly query: string; readonly indices: readonly number[] }
  | { readonly type: 'view'; readonly run: number; readonly id: number; readonly index: number; readonly view: EpisodeView | null; readonly error: string | null }
  | { readonly type: 'transcript'; readonly run: number; readonly index: number; readonly transcript: TranscriptView | null }
  | { readonly type: 'episode-json'; readonly run: number; readonly index: number; readonly json: string | null }
  | { readonly type: 'what-if'; readonly run: number; readonly id: number; readonly view: EpisodeView | null; readonly error: string | null }
  | { readonly type: 'report'; readonly run: number; readonly id: number; readonly file: ReportFile | null; readonly error: string | null };
export { decodeResultsBytes } from './model/episode/decode';
export { isSuccess, passHatK, type PassK, type TrialOutcome } from './view/pass-k';
export { episodeFingerprint, plainJson } from './view/fingerprint';
export { compareRuns, judgedApart, type CompareOutcome, type FlipCount, type JudgedApart, type RunComparison, type RunJudging, type TaskComparison, type TrialCounts } from './view/compare';
export { escapeHtml, reportHtml, type ReportInput, type ReportNotes, type ReportEpisode } from './view/report-html';
export { NOTE_LABELS, NOTES_FORMAT, exportNotes, hasContent, mergeNotes, parseNotesExport, type EpisodeNotes, type NoteConflict, type NoteLabel, type NotesExport, type NotesMerge } from './view/notes';
export { sessionReportHtml, sessionReportParts, type ReportOptions } from './session/report';
export { taskBugText, type TaskBugInput } from './view/task-bug';
export { compareTrials, type TrialCell, type TrialComparison, type TrialInput, type TrialRow } from './view/trial-compare';

/**
 * Starts a version 2 `#ep=` payload, an envelope: this line, a context line (JSON), then the
 * episode's text. Written on the page (`shareText`, src/store/share-codec.ts), split in the worker
 * (`splitSharedText`, src/worker/shared-episode.ts).
 */
/**
 * The offline report as the worker hands it over: a Blob of HTML (built in the worker piece by
 * piece, kept by the browser outside the page), named here by the little core can name of it.
 */
export interface ReportFile {
  readonly size: number;
  readonly type: string;
}

export const SHARE_MAGIC = 'tau-inspect-share/2\n';
