import type {
  AmbiguousKey,
  BenchmarkKind,
  DbSide,
  StateAtStep,
  BenchmarkView,
  BenchmarkWhatIf,
  Detection,
  EpisodeHeader,
  EpisodeNotes,
  EpisodeSummary,
  LibraryFilters,
  LibraryStats,
  StepEdit,
  SubmissionView,
  TranscriptView,
} from '../core/contract';
import type { ShareContext, SharedContext } from './share-context';
import type {
  DataOrigin,
  DataProgress,
  DataRequest,
  EpisodeAddress,
  FileBlob,
  FolderFile,
  LibraryProblem,
  LibrarySource,
  LibraryTable,
  RunBenchmark,
  RunSlot,
  RunSource,
} from './wire-types';

/**
 * The seam between the page and the evaluator worker, declared once. Every message the page sends
 * is a request below, with the answer the worker sends back for it (a message of the same `type`),
 * if any; every message the worker sends on its own is an event. The page's sender
 * (src/app/evaluator-client.ts, the store's `EvaluatorPort`), the worker's dispatch
 * (src/worker/handlers.ts), the store's receiver (src/store/receive.ts, `StoreHandlers`) and the
 * specs' fake port are all typed from these two maps: a new message is one entry here plus its
 * handler, and the handler maps do not compile until it has one.
 */

/** A request's fields (`Body`) and its answer's (`Answer`; null: none). The fields are types only; at run time an entry says whether it is answered. */
interface RequestSpec<Body, Answer> {
  readonly answered: boolean;
  readonly types?: { readonly body: Body; readonly answer: Answer };
}
interface EventSpec<Body> {
  readonly types?: { readonly body: Body };
}
/** A request the worker acts on without answering. */
const tell = <Body>(): RequestSpec<Body, null> => ({ answered: false });
/** A request the worker answers. */
const ask = <Body, Answer>(): RequestSpec<Body, Answer> => ({ answered: true });
const event = <Body>(): EventSpec<Body> => ({});

/** A view, or why there is none, in words. */
type Answer<V> = { readonly view: V; readonly error: null } | { readonly view: null; readonly error: string };

/** Page → worker. */
export const REQUESTS = {
  /** The worker starts: where the dev server serves τ-bench data. Answered with the bundled sample runs' names. */
  init: ask<{ readonly devDataUrl: string }, { readonly samples: readonly string[] }>(),
  /**
   * Opens a results file into a slot under a new run id. The run open in that slot so far stops
   * evaluating at once, and goes on if this one cannot be opened. The worker reports with events
   * (`run-progress`, `run-opened` or `run-error`, then data and evaluation events).
   */
  'open-run': tell<{ readonly slot: RunSlot; readonly run: number; readonly source: RunSource }>(),
  /** Drops the run in a slot (the compared run, `b`). */
  'close-run': tell<{ readonly slot: RunSlot }>(),
  /** Stop evaluating this run (what is evaluated stays; views are still answered). */
  cancel: tell<{ readonly run: number }>(),
  /** Go on evaluating a run stopped by `cancel` (from where it stopped). */
  resume: tell<{ readonly run: number }>(),
  /**
   * A data folder picked for one benchmark (`benchmark`), or dropped (null: for whichever benchmark's data it holds): it
   * becomes the folder of each benchmark whose data it holds (each benchmark keeps its own folder). Answered with the
   * benchmarks that took it (`used`; empty: it holds none of the data it was picked for).
   */
  'use-folder': ask<
    { readonly id: number; readonly name: string; readonly files: readonly FolderFile[]; readonly benchmark: BenchmarkKind | null },
    { readonly id: number; readonly name: string; readonly meant: BenchmarkKind | null; readonly used: readonly BenchmarkKind[] }
  >(),
  /** The user agreed to fetch data from this URL base (or a link carried it from an agreed host). */
  'use-data-url': tell<{ readonly base: string }>(),
  /** Rows on screen, evaluated before the rest. */
  prioritize: tell<{ readonly run: number; readonly indices: readonly number[] }>(),
  /** Episodes whose messages hold the query (`id`: the page's sequence number; only the newest search is answered). */
  search: ask<
    { readonly run: number; readonly id: number; readonly query: string },
    { readonly run: number; readonly id: number; readonly query: string; readonly indices: readonly number[] }
  >(),
  /**
   * An episode's screen data, whatever its benchmark (`view.benchmark` says which): for the episode screen, another
   * trial beside it, or a compared run's drill-down alike.
   */
  view: ask<EpisodeAddress, EpisodeAddress & Answer<BenchmarkView>>(),
  /**
   * A DB (`db`: the agent's, or telecom's user device) after message `message`: the records changed so far and, when
   * `record` is given, that record (a key prefix lists the keys). Only what is shown crosses: the worker keeps the replay.
   * (A τ-bench episode's view carries each step's record changes itself.)
   */
  'state-at-step': ask<
    EpisodeAddress & { readonly message: number; readonly db: DbSide; readonly record: { readonly table: string; readonly key: string | null } | null },
    EpisodeAddress & ({ readonly state: StateAtStep; readonly error: null } | { readonly state: null; readonly error: string })
  >(),
  /**
   * An episode's audio, read only when asked (a τ³ voice simulation's `both.wav` in its run folder, `path` inside it): a
   * picked file is handed on as it is, the sample's fetched from the app's own files; `audio` null with the reason.
   */
  audio: ask<EpisodeAddress, EpisodeAddress & { readonly audio: Blob | null; readonly path: string | null; readonly error: string | null }>(),
  /** The dialogue as recorded, answered from the parsed file alone (no data needed). */
  transcript: ask<EpisodeAddress, EpisodeAddress & { readonly transcript: TranscriptView | null }>(),
  /**
   * An episode judged again with what-if edits (calls dropped, edited or inserted, messages edited; `id`: the page's
   * sequence number); `error`: an edit that cannot apply, in words.
   */
  'what-if': ask<
    EpisodeAddress & { readonly id: number; readonly edits: readonly StepEdit[] },
    EpisodeAddress & { readonly id: number } & Answer<BenchmarkWhatIf>
  >(),
  /**
   * An episode made into a link's `ep=` payload with the place it is shared from: the worker writes
   * the envelope and deflates it (`payload`), and hands the episode's JSON as a file to offer when
   * the link is too long.
   */
  'share-link': ask<
    EpisodeAddress & { readonly context: ShareContext },
    EpisodeAddress &
      ({ readonly payload: string; readonly file: FileBlob; readonly error: null } | { readonly payload: null; readonly file: null; readonly error: string })
  >(),
  /**
   * The offline report of a run (as the CLI's `report`), every episode evaluated first.
   * `notes`: the notes of its episodes (matched by fingerprint in the worker); `edits`: the what-if edits of its
   * episodes the page holds, by episode index (a report made from an edited view shows them; absent: none).
   */
  report: ask<
    {
      readonly run: number;
      readonly id: number;
      readonly title: string;
      readonly notes: readonly EpisodeNotes[];
      readonly edits?: readonly { readonly episode: number; readonly edits: readonly StepEdit[] }[];
    },
    { readonly run: number; readonly id: number; readonly file: FileBlob | null; readonly error: string | null }
  >(),
  /**
   * A notes export read and checked off the page's thread (`parseNotesExport`, its limits): the records
   * come back as UTF-8 JSON (transferred buffers) in chunks of at most `NOTES_CHUNK` records, which the
   * page decodes and merges one at a time, so no task on the page's thread handles them all; or the
   * sentence saying why nothing is imported.
   */
  'parse-notes': ask<
    { readonly id: number; readonly file: Blob },
    { readonly id: number; readonly error: string | null; readonly chunks: readonly Uint8Array[] }
  >(),
  /**
   * Opens a library of runs (`id`: the page's sequence number; a newer one stops an older one): a `runs.parquet`
   * read with hyparquet in the worker, or a folder's results files judged one by one (`library-progress` meanwhile).
   * Answered with the rows, column by column, and the files that could not be read, each with its reason.
   */
  'open-library': ask<
    { readonly id: number; readonly source: LibrarySource },
    {
      readonly id: number;
      readonly table: LibraryTable | null;
      readonly problems: readonly LibraryProblem[];
      readonly error: string | null;
      readonly via: string;
      /** A folder of leaderboard submissions: each entry's claims beside its trajectories' pass^k (core's `submissionView`). */
      readonly submissions?: readonly SubmissionView[];
    }
  >(),
  /**
   * The open library's leaderboard, tasks × runs, task health and task audit for some filters, computed in the worker
   * (the page's thread never loops over the rows): `rows` of each benchmark and domain's leaderboard. `id` is the
   * library's; an answer for an older library or older filters is dropped by the page.
   */
  'library-stats': ask<
    { readonly id: number; readonly seq: number; readonly filters: LibraryFilters; readonly rows: number },
    { readonly id: number; readonly seq: number; readonly stats: LibraryStats | null; readonly error: string | null }
  >(),
};

/** Records per chunk of a parsed notes import (see `parse-notes`). */
export const NOTES_CHUNK = 1000;

/** Worker → page, unasked (about a run the page opened). */
export const EVENTS = {
  /** How much of a results file has been read (a big file takes seconds); `total` null when unknown. */
  'run-progress': event<{ readonly run: number; readonly loaded: number; readonly total: number | null }>(),
  /**
   * A run is open: its benchmark (and domain), its rows (headers; judged rows come as `summaries`), and `shared`, the
   * context a shared link carried (checked in the worker).
   */
  'run-opened': event<{
    readonly run: number;
    readonly label: string;
    readonly benchmark: RunBenchmark;
    readonly domainWhy: string;
    readonly headers: readonly EpisodeHeader[];
    /** The file is still being read: `headers` are its first episodes, `run-rows` brings the rest (judging has begun on these). */
    readonly reading?: boolean;
    readonly shared?: SharedContext;
  }>(),
  /** More rows of a run opened while its file is read (appended after those sent); `reading` false: the file is read to its end, these are the last. */
  'run-rows': event<{ readonly run: number; readonly headers: readonly EpisodeHeader[]; readonly reading: boolean }>(),
  /**
   * Fingerprints of rows that went out without one (`EpisodeHeader.fingerprint` null: a τ² run's rows are posted before
   * their content is hashed, then these follow in slices): `fingerprints[i]` is row `indices[i]`'s.
   */
  fingerprints: event<{ readonly run: number; readonly indices: readonly number[]; readonly fingerprints: readonly string[] }>(),
  /**
   * Once every row is keyed, the rows whose fingerprint changed when fingerprints began to keep JSON's types:
   * `fingerprints[i]` is row `indices[i]`'s old one, which no other row had (notes kept under it are that row's; a row
   * comes once for each older format whose fingerprint differs from today's);
   * `ambiguous`, the old ones several rows had (notes kept under one of them are attached to none by it).
   */
  'legacy-fingerprints': event<{
    readonly run: number;
    readonly indices: readonly number[];
    readonly fingerprints: readonly string[];
    readonly ambiguous: readonly AmbiguousKey[];
  }>(),
  /** The run could not be opened; whatever was open in its slot before stays open. */
  'run-error': event<{ readonly run: number; readonly label: string; readonly message: string }>(),
  'data-needed': event<{ readonly run: number } & DataRequest>(),
  'data-progress': event<{ readonly run: number } & DataProgress>(),
  'data-error': event<{ readonly run: number; readonly message: string }>(),
  /**
   * A run's data is there and its rows are being judged: where it came from, in words (`why`), and for a τ-bench run its
   * `detection` (data version and rule, each with its reason; null for a τ² run). `reset`: earlier summaries no longer hold.
   */
  'data-ready': event<{
    readonly run: number;
    readonly origin: DataOrigin;
    readonly why: string;
    readonly detection: Detection | null;
    readonly reset: boolean;
    /** What the benchmark's session says about the whole run, in words, for the overview (a voice run's interaction metrics, averaged over it); absent: nothing. */
    readonly about?: readonly string[];
  }>(),
  /** A folder library being judged: files done of all, episodes so far, the files that could not be read so far. */
  'library-progress': event<{ readonly id: number; readonly done: number; readonly total: number; readonly episodes: number; readonly problems: number }>(),
  /** Newly evaluated rows (or all rows again after the rule changed: `replace`). */
  summaries: event<{
    readonly run: number;
    readonly summaries: readonly EpisodeSummary[];
    readonly evaluated: number;
    readonly total: number;
    readonly replace: boolean;
    /** Threads judging the run now: 2 while a judge helper takes part of a big run (absent: 1). */
    readonly threads?: number;
  }>(),
};

type Requests = typeof REQUESTS;
type Events = typeof EVENTS;
type BodyOf<S> = S extends RequestSpec<infer B, unknown> ? B : S extends EventSpec<infer B> ? B : never;
type AnswerOf<S> = S extends RequestSpec<unknown, infer A> ? A : never;

export type RequestName = keyof Requests;
export type EventName = keyof Events;
/** The requests the worker answers. */
export type AnsweredName = { [K in RequestName]: AnswerOf<Requests[K]> extends null ? never : K }[RequestName];
/** Every `type` the worker sends: its events and the answers to requests. */
export type FromWorkerName = EventName | AnsweredName;

/** A message to the worker (one request). */
export type ToWorker<K extends RequestName = RequestName> = { [P in K]: { readonly type: P } & BodyOf<Requests[P]> }[K];
/** A message from the worker: an event, or the answer to a request of the same `type`. */
export type FromWorker<K extends FromWorkerName = FromWorkerName> = {
  [P in K]: { readonly type: P } & (P extends EventName ? BodyOf<Events[P]> : P extends AnsweredName ? AnswerOf<Requests[P]> : never);
}[K];

/** One handler per request: the worker's dispatch. */
export type RequestHandlers = { readonly [K in RequestName]: (m: ToWorker<K>) => void };

/** Event and request names are one namespace on the way back: none may be both. */
const noOverlap: [Extract<EventName, RequestName>] extends [never] ? true : false = true;
void noOverlap;

export const REQUEST_NAMES = Object.keys(REQUESTS) as RequestName[];
export const FROM_WORKER_NAMES = [...(Object.keys(EVENTS) as EventName[]), ...REQUEST_NAMES.filter((k) => REQUESTS[k].answered)] as FromWorkerName[];

/** Hands a message to its handler. */
export function dispatch<M extends { readonly type: string }>(
  handlers: { readonly [K in M['type']]: (m: Extract<M, { readonly type: K }>) => void },
  m: M,
): void {
  (handlers[m.type as M['type']] as (m: M) => void)(m);
}
