import { benchmarkOf, type Detection, type EpisodeHeader, type EpisodeSummary } from '../core/contract';
import type { DataOrigin, DataProgress, DataRequest, RunBenchmark, RunSlot, RunSource } from '../protocol/wire-types';

export type { RunSlot };

/** Where a run came from, as the page knows it (it goes into links). */
export interface RunInfo {
  readonly kind: RunSource['kind'];
  readonly label: string;
  /** Set for a run opened from a URL (it goes into links). */
  readonly url: string | null;
  readonly sample: string | null;
  /** A local file kept in this browser (it goes into links as `file=`, which only this browser can open). */
  readonly file: string | null;
  /** One episode carried in the link itself (`ep=`). */
  readonly embedded?: string;
}

/**
 * One run as the worker reports it. The app holds two (`runs.a`, the open run, and `runs.b`, one
 * opened beside it to compare), updated by the same handlers (src/store/runs-slice.ts).
 */
export interface RunState {
  /** The run's id (the page numbers the runs it opens); null: no run in this slot. */
  readonly id: number | null;
  readonly source: RunInfo | null;
  /** The run's benchmark and what the page knows of it when it opens (null: no run). */
  readonly benchmark: RunBenchmark | null;
  /** The run's domain (τ-bench's, or τ²'s name for it). */
  readonly domain: string | null;
  readonly domainWhy: string;
  readonly headers: readonly EpisodeHeader[];
  /** The file is still being read: more rows come (`run-rows`), and judging has begun on those here. */
  readonly reading: boolean;
  /** How much of the file is read, while it is (`reading`). */
  readonly read: { readonly loaded: number; readonly total: number | null } | null;
  readonly summaries: readonly (EpisodeSummary | undefined)[];
  readonly evaluated: number;
  /** The most threads that judged this evaluation of the run at once (2 for a big run: see the worker's judge helper). */
  readonly threads: number;
  /** The user stopped evaluating the run (rows not evaluated stay so); cleared by resuming, new data or another run. */
  readonly stopped: boolean;
  /** The run's data is there (where from, in words): its rows are (being) recomputed. */
  readonly ready: string | null;
  /** What the run's session says about the whole run, in words (`data-ready.about`: a voice run's interaction metrics). */
  readonly about: readonly string[];
  /** A τ-bench run's data version and rule, each with its reason (once `ready`). */
  readonly detection: Detection | null;
  readonly origin: DataOrigin | null;
  /** Data the run needs and this browser does not have. */
  readonly dataRequest: DataRequest | null;
  readonly dataProgress: DataProgress | null;
  readonly dataError: string | null;
}

export const NO_RUN: RunState = {
  id: null,
  source: null,
  benchmark: null,
  domain: null,
  domainWhy: '',
  headers: [],
  reading: false,
  read: null,
  summaries: [],
  evaluated: 0,
  threads: 1,
  stopped: false,
  ready: null,
  about: [],
  detection: null,
  origin: null,
  dataRequest: null,
  dataProgress: null,
  dataError: null,
};

/** The run's data is there: rows are (being) recomputed (τ-bench: detected; τ²: DBs loaded). */
export const runReady = (r: RunState): boolean => r.ready !== null;

/** Every row is recomputed (and, for τ-bench, the rule is settled). */
export const runComplete = (r: RunState): boolean => !r.reading && r.ready !== null && (r.detection?.ruleFinal ?? true) && r.evaluated >= r.headers.length;

/** A run asked for and not open yet. `fallback`: opened because another run could not be (the complaint about that one stays on screen). */
export interface PendingRun {
  readonly run: number;
  readonly info: RunInfo;
  readonly fallback?: boolean;
  readonly read?: { readonly loaded: number; readonly total: number | null };
}

export const SLOTS: readonly RunSlot[] = ['a', 'b'];

/** The slot whose open run has this id. */
export const slotOf = (runs: Readonly<Record<RunSlot, RunState>>, run: number): RunSlot | null => SLOTS.find((k) => runs[k].id === run) ?? null;

/** The slot where the run with this id is being opened. */
export const pendingSlotOf = (pending: Readonly<Record<RunSlot, PendingRun | null>>, run: number): RunSlot | null =>
  SLOTS.find((k) => pending[k]?.run === run) ?? null;

/** Why a compared run cannot be evaluated (data missing, a data error), in words; null when nothing is wrong. */
export function runProblem(r: RunState): string | null {
  if (r.dataError !== null) return r.dataError;
  if (runReady(r) || r.dataRequest === null) return null;
  const bench = benchmarkOf(r.dataRequest.benchmark);
  return `${r.dataRequest.reason} Pick a ${bench.dataFolder} (Open ▸ ${bench.dataFolder}…), or fetch it.`;
}
