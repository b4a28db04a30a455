import type { BenchmarkKind, Domain } from '../core/contract';

/**
 * What the page and the worker hand each other besides core's own data (views, summaries,
 * detections, which src/core/contract.ts names): where a run comes from, the data a run needs,
 * and the files the worker builds.
 */

/** The two runs the app holds: `a` the open run, `b` a second one opened beside it to compare. */
export type RunSlot = 'a' | 'b';

/** A file handed over by the page (a DOM `File`; the worker needs only this much of it). */
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
  | { readonly kind: 'shared'; readonly payload: string }
  /** A τ² run folder as leaderboard submissions store it (`results.json` + `simulations/<id>.json`), picked or dropped. */
  | { readonly kind: 'folder'; readonly name: string; readonly files: readonly FolderFile[] };

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
  /** A domain of the run's benchmark. */
  readonly domain: Domain | string;
  /** Set for a τ²-bench run: its data is laid out `<commit>/data/tau2/domains/<domain>/…`. */
  readonly benchmark: BenchmarkKind;
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

/**
 * A file the worker built (the offline report, an episode's JSON): a Blob, kept by the browser
 * outside the page until it is downloaded; named here by the little both sides need of it.
 */
export interface FileBlob {
  readonly size: number;
  readonly type: string;
}

/** One episode of one run: what a view, a transcript or a share link is asked for. */
export interface EpisodeAddress {
  /** The run's id (given by the page when it opened it). */
  readonly run: number;
  /** The episode's index in the run's file. */
  readonly episode: number;
}

/** A run's benchmark as the page needs to know it when the run opens: a τ-bench run's domain, a τ² run's facts. */
export type RunBenchmark = { readonly kind: 'tau-bench'; readonly domain: Domain } | ({ readonly kind: 'tau2' } & Tau2Opened);

/** A τ²-bench run as the page needs to know it when it opens (its rows come as `summaries`, like τ-bench's). */
export interface Tau2Opened {
  /** τ²'s domain name (airline, retail, telecom, mock, or one this version does not judge). */
  readonly domain: string;
  readonly solo: boolean;
  /** `info.num_trials` as recorded (pass^k's largest k), null when absent. */
  readonly numTrials: number | null;
  /** Damage and oddities of the file, in words. */
  readonly notes: readonly string[];
}

/**
 * Where a library of runs comes from: a `runs.parquet` made by `tau-inspect index` (a picked file, or a URL),
 * or a picked folder (its `runs.parquet` if it has one, else its results files, judged in the worker).
 */
export type LibrarySource =
  | { readonly kind: 'parquet'; readonly name: string; readonly file: Blob }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'folder'; readonly name: string; readonly files: readonly FolderFile[] };

export { LIBRARY_FLAG, type LibraryRun, type LibraryTable } from '../core/contract';

/** A file of a folder library that could not be judged, and why. */
export interface LibraryProblem {
  readonly file: string;
  readonly reason: string;
  /** The file could not be judged for want of this benchmark's data (the library judges itself again once it is there). */
  readonly missing?: BenchmarkKind;
}
