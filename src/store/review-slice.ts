import type { StateCreator } from 'zustand/vanilla';
import {
  isSuccess,
  judgedApart,
  type JudgedApart,
  type EpisodeHeader,
  type EpisodeSummary,
  type BenchmarkView,
  notesFor,
  type RunComparison,
} from '../core/contract';
import type { FromWorker } from '../protocol/messages';
import type { FileBlob } from '../protocol/wire-types';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { StoreAccess, StoreHandlers } from './receive';
import { fingerprintsPending } from './notes-slice';
import { NO_RUN, type RunState } from './run-state';
import { judgingOf, rulesOf } from './benchmark-rules';
import { compareTasks } from './tau2/compare';

/** One episode of the drill-down: `index` in its side's run, the view once it arrives. */
export interface CompareEpisode {
  readonly index: number;
  readonly view: BenchmarkView | null;
  readonly error: string | null;
}

export type CompareSide = 'a' | 'b';

/** Comparing the open run (A, `runs.a`) with a second one (B, `runs.b`), and the open run's offline report. */
export interface ReviewSlice {
  /** The compare view is on screen (instead of the overview). */
  compareShown: boolean;
  compareFlipsOnly: boolean;
  /** The task drilled into. */
  compareTask: number | null;
  compareEpisodes: { readonly a: CompareEpisode | null; readonly b: CompareEpisode | null };
  /** The report being built: 'building' until the worker answers. */
  report: { readonly id: number; readonly state: 'building' | 'error'; readonly error: string | null } | null;

  /** Opens a second results file beside the open run and shows the comparison. */
  openCompareFile(file: File): void;
  closeCompare(): void;
  /** Run B is not compared with A (a τ-bench run beside a τ² run): it is closed, and the notice says why. */
  refuseCompare(reason: string): void;
  showCompare(shown: boolean): void;
  setCompareFlipsOnly(on: boolean): void;
  /** Shows a task's episodes of both runs (the first trial of each, or the given ones). */
  selectCompareTask(taskId: number | null): void;
  selectCompareEpisode(side: CompareSide, index: number): void;
  /** The open run's offline report (a Blob of HTML), null when it could not be built (`report.error` says why). */
  buildReport(): Promise<FileBlob | null>;
}

let reportId = 0;
const waitingReports = new Map<number, (file: FileBlob | null) => void>();

/** The comparison of the open run (A) with the second one (B), once both are evaluated (two runs of one benchmark). */
export function comparison(a: RunState, b: RunState): RunComparison | null {
  if (b.id === null || a.benchmark?.kind !== b.benchmark?.kind) return null;
  return rulesOf(a.benchmark).compare(a, b);
}

/** What differs in how A and B were judged (domain, data version, rule); empty when nothing does or before detection. */
export function apartOf(a: RunState, b: RunState): JudgedApart[] {
  const j = judgingOf(a, b);
  return j ? judgedApart(j.a, j.b) : [];
}

type Passed = boolean | null;
const passed = (sums: readonly (EpisodeSummary | undefined)[], i: number): Passed => {
  const r = sums[i]?.reward;
  return r === null || r === undefined ? null : isSuccess(r);
};

/**
 * The two episodes a task's drill-down opens first: where the runs differ, if they do — the same
 * trial passing on one side and failing on the other, else any passing/failing pair — else each
 * side's first trial.
 */
export function drillPair(
  taskId: number,
  aHeaders: readonly EpisodeHeader[],
  aSums: readonly (EpisodeSummary | undefined)[],
  bHeaders: readonly EpisodeHeader[],
  bSums: readonly (EpisodeSummary | undefined)[],
): { a: number | undefined; b: number | undefined } {
  const as = aHeaders.filter((h) => h.taskId === taskId);
  const bs = bHeaders.filter((h) => h.taskId === taskId);
  const differ = (x: EpisodeHeader, y: EpisodeHeader): boolean => {
    const px = passed(aSums, x.index);
    const py = passed(bSums, y.index);
    return px !== null && py !== null && px !== py;
  };
  for (const x of as) {
    const y = bs.find((h) => h.trial === x.trial);
    if (y && differ(x, y)) return { a: x.index, b: y.index };
  }
  for (const x of as) {
    const y = bs.find((h) => differ(x, h));
    if (y) return { a: x.index, b: y.index };
  }
  return { a: as[0]?.index, b: bs[0]?.index };
}

export const createReviewSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], ReviewSlice> =>
  (set, get, api) => {
    const requestView = (side: CompareSide, index: number): void => {
      const s = get();
      const run = s.runs[side].id;
      if (run === null) return;
      set({ compareEpisodes: { ...s.compareEpisodes, [side]: { index, view: null, error: null } } });
      port.send({ type: 'view', run, episode: index });
    };
    return {
      compareShown: false,
      compareFlipsOnly: false,
      compareTask: null,
      compareEpisodes: { a: null, b: null },
      report: null,

      openCompareFile(file) {
        // A τ-bench run beside a τ² one is refused once B is read (src/store/runs-slice.ts).
        get().openRun('b', { kind: 'file', file }, { kind: 'file', label: file.name, url: null, sample: null, file: file.name });
      },
      closeCompare() {
        port.send({ type: 'close-run', slot: 'b' });
        set((s) => ({
          runs: { ...s.runs, b: NO_RUN },
          pending: { ...s.pending, b: null },
          compareShown: false,
          compareTask: null,
          compareEpisodes: { a: null, b: null },
        }));
      },
      refuseCompare(reason) {
        get().closeCompare();
        get().notify('error', `Not compared: ${reason}.`);
      },
      showCompare: (compareShown) => set({ compareShown }),
      setCompareFlipsOnly: (compareFlipsOnly) => set({ compareFlipsOnly }),
      selectCompareTask(taskId) {
        set({ compareTask: taskId, compareEpisodes: { a: null, b: null } });
        if (taskId === null) return;
        const { a, b } = get().runs;
        const tasks = compareTasks(a, b);
        const pair = drillPair(taskId, tasks.a, a.summaries, tasks.b, b.summaries);
        if (pair.a !== undefined) requestView('a', pair.a);
        if (pair.b !== undefined) requestView('b', pair.b);
      },
      selectCompareEpisode: (side, index) => requestView(side, index),

      buildReport() {
        const s = get();
        const { id: run, headers, source } = s.runs.a;
        if (run === null) return Promise.resolve(null);
        const id = ++reportId;
        set({ report: { id, state: 'building', error: null } });
        const send = (headers: readonly EpisodeHeader[]): Promise<FileBlob | null> => {
          const notes = headers.flatMap((h) => notesFor(get().notes, h) ?? []);
          // A report made from an edited view: the what-if edits the page holds for this run's episodes go with it.
          const edits = Object.entries(get().whatIfEdits)
            .filter(([, e]) => e.length > 0)
            .map(([episode, e]) => ({ episode: Number(episode), edits: e }));
          return new Promise((resolve) => {
            waitingReports.set(id, resolve);
            port.send({ type: 'report', run, id, title: source?.label ?? 'run', notes, ...(edits.length > 0 && { edits }) });
          });
        };
        if (fingerprintsPending(headers) === 0) return send(headers);
        // A τ² run just opened: its rows' fingerprints are still coming, and a row without one would lose its notes from the report.
        return new Promise<readonly EpisodeHeader[] | null>((resolve) => {
          const unsubscribe = api.subscribe((now) => {
            const r = now.runs.a;
            if (r.id === run && fingerprintsPending(r.headers) > 0 && now.report?.id === id) return;
            unsubscribe();
            resolve(r.id === run && now.report?.id === id ? r.headers : null);
          });
        }).then((hs) => (hs ? send(hs) : null));
      },
    };
  };

/** A drill-down view: taken by each side whose run and episode it is. */
export function compareViewArrived({ run, episode, view, error }: FromWorker<'view'>, { get, set }: StoreAccess): void {
  const s = get();
  for (const side of ['a', 'b'] as const) {
    const ep = get().compareEpisodes[side];
    if (ep && ep.index === episode && s.runs[side].id === run) set({ compareEpisodes: { ...get().compareEpisodes, [side]: { ...ep, view, error } } });
  }
}

export const reviewHandlers: StoreHandlers<'report'> = {
  report({ id, file, error }, { get, set }) {
    const resolve = waitingReports.get(id);
    waitingReports.delete(id);
    if (get().report?.id === id) set({ report: file === null ? { id, state: 'error', error: error ?? 'the report could not be built' } : null });
    resolve?.(file);
  },
};
