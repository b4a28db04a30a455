/**
 * The wire between the evaluator worker and its library judges (workers it starts to judge a library folder's
 * runs side by side): declared once here, used by both ends. A judge asks the evaluator where a domain's data is
 * (`locate`) and for its files (`read`): the data sources (a picked folder, agreed URL bases, this browser's cache)
 * stay the evaluator's.
 */
import type { BenchmarkKind, IndexRow } from '../../core/contract';
import type { DataOrigin } from '../../protocol/wire-types';
import type { Unit } from '../library/folder-library';

export type DataKind = 'tau-bench' | 'tau2';

export type ToLibraryJudge =
  /** A run of the folder to judge into its rows. */
  | { readonly type: 'judge'; readonly id: number; readonly unit: Unit }
  /** Where the data asked for is (null: none in this browser). */
  | { readonly type: 'located'; readonly rid: number; readonly found: { readonly key: string; readonly label: string; readonly origin: DataOrigin } | null }
  /** A data file's text (null: not there). */
  | { readonly type: 'text'; readonly rid: number; readonly text: string | null; readonly error: string | null };

export type FromLibraryJudge =
  /** The run's rows, or why it has none (listed as the folder's problem, as the evaluator would list it). */
  | { readonly type: 'rows'; readonly id: number; readonly rows: IndexRow[] }
  /** `missing`: the run failed for want of this benchmark's data (the library judges it again once the data arrives). */
  | { readonly type: 'failed'; readonly id: number; readonly reason: string; readonly missing?: BenchmarkKind }
  | { readonly type: 'locate'; readonly rid: number; readonly kind: DataKind; readonly domain: string }
  | { readonly type: 'read'; readonly rid: number; readonly kind: DataKind; readonly key: string; readonly path: string };
