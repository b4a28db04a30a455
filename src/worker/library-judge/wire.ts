/**
 * The wire between the evaluator worker and its library judges (workers it starts to judge a library folder's
 * runs side by side): declared once here, used by both ends. A judge asks the evaluator where a domain's data is
 * (`locate`) and for its files (`read`): the data sources (a picked folder, agreed URL bases, this browser's cache)
 * stay the evaluator's. A domain's data is loaded by one judge only: the first to need it loads it and hands it to
 * the evaluator (`share`), which gives it to every other judge that asks (`ask-shared`), so the others restore it
 * instead of parsing, validating and hashing it again.
 */
import type { BenchmarkKind, DataSnapshot, IndexRow, Tau2DbSnapshot, VersionFacts } from '../../core/contract';
import type { DataOrigin, FolderFile } from '../../protocol/wire-types';

/** A run of a picked folder: a results file, or a τ² run folder (results.json + simulations/). */
export interface Unit {
  /** Its path inside the picked folder (the folder's name left out), as the library names it. */
  readonly path: string;
  readonly files: readonly FolderFile[];
  readonly folder: boolean;
}

export type DataKind = 'tau-bench' | 'tau2';

/** A τ-bench data version as one judge loaded it: its facts, the parsed DB and the work on it (hasher, reference-replay hashes). */
export interface SharedVersion {
  readonly facts: VersionFacts;
  readonly snapshot: DataSnapshot;
}

/** A domain's data as a judge loaded it, for the other judges, by benchmark: τ-bench's versions, τ²'s DBs as `tau2DbsSnapshot` gives them (its JSON and the hashers' texts as bytes). */
export interface SharedDataOf {
  readonly 'tau-bench': {
    /** The versions it built (others are never parsed unless a run asks for them). */
    readonly versions: readonly SharedVersion[];
    /** The data files' texts it read, by path (each other version is parsed from them when a run asks for it). */
    readonly texts: readonly (readonly [string, string])[];
  };
  readonly tau2: { readonly snapshot: Tau2DbSnapshot };
}
export type SharedData = SharedDataOf[DataKind];

export type ToLibraryJudge =
  /** A run of the folder to judge into its rows. */
  | { readonly type: 'judge'; readonly id: number; readonly unit: Unit }
  /** Where the data asked for is (null: none in this browser). */
  | { readonly type: 'located'; readonly rid: number; readonly found: { readonly key: string; readonly label: string; readonly origin: DataOrigin } | null }
  /** A data file's text (null: not there). */
  | { readonly type: 'text'; readonly rid: number; readonly text: string | null; readonly error: string | null }
  /** A domain's data another judge loaded; null: none yet, this judge loads it and `share`s it (or null when it cannot). */
  | { readonly type: 'shared'; readonly rid: number; readonly data: SharedData | null };

export type FromLibraryJudge =
  /** The run's rows, or why it has none (listed as the folder's problem, as the evaluator would list it). */
  | { readonly type: 'rows'; readonly id: number; readonly rows: IndexRow[] }
  /** `missing`: the run failed for want of this benchmark's data (the library judges it again once the data arrives). */
  | { readonly type: 'failed'; readonly id: number; readonly reason: string; readonly missing?: BenchmarkKind }
  | { readonly type: 'locate'; readonly rid: number; readonly kind: DataKind; readonly domain: string }
  /** A file of the data located for `domain` (its source `key`). */
  | { readonly type: 'read'; readonly rid: number; readonly kind: DataKind; readonly key: string; readonly domain: string; readonly path: string }
  /** The data of `domain` at the located source `key`, if a judge loaded it already (answered `shared`; waits while one loads it). */
  | { readonly type: 'ask-shared'; readonly rid: number; readonly kind: DataKind; readonly key: string; readonly domain: string }
  /** The data this judge was asked to load (null: it could not), for the judges that ask after it. */
  | { readonly type: 'share'; readonly kind: DataKind; readonly key: string; readonly domain: string; readonly data: SharedData | null }
  /** Reference-replay hashes a judge worked out on a τ-bench version (`commit`), added to what later judges get. */
  | { readonly type: 'work'; readonly key: string; readonly domain: string; readonly commit: string; readonly gtHashes: ReadonlyMap<string, string> };
