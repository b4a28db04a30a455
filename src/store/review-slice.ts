import type { StateCreator } from 'zustand/vanilla';
import { compareRuns, isSuccess, type CompareOutcome, type Detection, type Domain, type EpisodeHeader, type EpisodeSummary, type EpisodeView, type ReportFile, type RunComparison } from '../core/contract';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';

/** The second run of a comparison (B; the open run is A), as the worker reports it. */
export interface CompareRun {
  readonly run: number;
  readonly label: string;
  readonly domain: Domain;
  readonly headers: readonly EpisodeHeader[];
  readonly summaries: readonly (EpisodeSummary | undefined)[];
  readonly evaluated: number;
  readonly detection: Detection | null;
  /** Why B cannot be evaluated (data missing, a data error), shown in the compare view. */
  readonly problem: string | null;
  /** Where τ-bench's data could be fetched from, when B needs data this browser does not have (fetched only if the user agrees). */
  readonly dataBase: string | null;
}

/** One episode of the drill-down: `index` in its run, the view once it arrives. */
export interface CompareEpisode {
  readonly id: number;
  readonly index: number;
  readonly view: EpisodeView | null;
  readonly error: string | null;
}

export type CompareSide = 'a' | 'b';

export interface ReviewSlice {
  comparePending: { readonly run: number; readonly label: string } | null;
  compareRun: CompareRun | null;
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
  showCompare(shown: boolean): void;
  setCompareFlipsOnly(on: boolean): void;
  /** Shows a task's episodes of both runs (the first trial of each, or the given ones). */
  selectCompareTask(taskId: number | null): void;
  selectCompareEpisode(side: CompareSide, index: number): void;
  /** The offline report (HTML text) of the open run with its notes; null (and `report.error`) when it cannot be built. */
  /** The open run's offline report (a Blob of HTML), null when it could not be built (`report.error` says why). */
  buildReport(): Promise<ReportFile | null>;

  compareOpened(run: number, label: string, domain: Domain, headers: readonly EpisodeHeader[]): void;
  compareFailed(run: number, label: string, message: string): void;
  compareProblem(run: number, message: string, dataBase?: string): void;
  compareDetected(run: number, detection: Detection, reset: boolean): void;
  compareSummarized(run: number, summaries: readonly EpisodeSummary[], evaluated: number, replace: boolean): void;
  /** A view asked for by the drill-down (ids < 0). */
  compareViewArrived(run: number, id: number, view: EpisodeView | null, error: string | null): void;
  reportArrived(run: number, id: number, file: ReportFile | null, error: string | null): void;
}

/** Ids of views asked for by the comparison are negative, so the episode screen's answers never mix with them. */
let compareViewId = 0;
let reportId = 0;
const waitingReports = new Map<number, (file: ReportFile | null) => void>();

/** Outcomes of a run for `compareRuns`; null while any episode is not evaluated yet. */
export function compareOutcomes(headers: readonly EpisodeHeader[], summaries: readonly (EpisodeSummary | undefined)[]): CompareOutcome[] | null {
  const out: CompareOutcome[] = [];
  for (const h of headers) {
    const s = summaries[h.index];
    if (!s) return null;
    out.push({ index: h.index, taskId: h.taskId, trial: h.trial, reward: s.error === null ? s.reward : null });
  }
  return out;
}

/** The comparison of the open run (A) with the second one (B), once both are evaluated. */
export function comparison(s: Pick<AppState, 'headers' | 'summaries' | 'compareRun'>): RunComparison | null {
  const b = s.compareRun;
  if (!b) return null;
  const oa = compareOutcomes(s.headers, s.summaries);
  const ob = compareOutcomes(b.headers, b.summaries);
  return oa && ob ? compareRuns(oa, ob) : null;
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
  (set, get) => {
    const requestView = (side: CompareSide, index: number): void => {
      const s = get();
      const run = side === 'a' ? s.run : s.compareRun?.run;
      if (run === null || run === undefined) return;
      const id = --compareViewId;
      set({ compareEpisodes: { ...s.compareEpisodes, [side]: { id, index, view: null, error: null } } });
      port.view(run, id, index);
    };
    const mine = (run: number): boolean => get().compareRun?.run === run;
    return {
      comparePending: null,
      compareRun: null,
      compareShown: false,
      compareFlipsOnly: false,
      compareTask: null,
      compareEpisodes: { a: null, b: null },
      report: null,

      openCompareFile(file) {
        const run = get().nextRun;
        set({ nextRun: run + 1, comparePending: { run, label: file.name } });
        port.openCompare(run, { kind: 'file', file });
      },
      closeCompare() {
        port.closeCompare();
        set({ compareRun: null, comparePending: null, compareShown: false, compareTask: null, compareEpisodes: { a: null, b: null } });
      },
      showCompare: (compareShown) => set({ compareShown }),
      setCompareFlipsOnly: (compareFlipsOnly) => set({ compareFlipsOnly }),
      selectCompareTask(taskId) {
        set({ compareTask: taskId, compareEpisodes: { a: null, b: null } });
        if (taskId === null) return;
        const s = get();
        const { a, b } = drillPair(taskId, s.headers, s.summaries, s.compareRun?.headers ?? [], s.compareRun?.summaries ?? []);
        if (a !== undefined) requestView('a', a);
        if (b !== undefined) requestView('b', b);
      },
      selectCompareEpisode: (side, index) => requestView(side, index),

      buildReport() {
        const s = get();
        if (s.run === null) return Promise.resolve(null);
        const id = ++reportId;
        const notes = s.headers.flatMap((h) => {
          const n = s.notes.get(h.fingerprint);
          return n ? [n] : [];
        });
        set({ report: { id, state: 'building', error: null } });
        return new Promise((resolve) => {
          waitingReports.set(id, resolve);
          port.report(s.run!, id, s.source?.label ?? 'run', notes);
        });
      },

      compareOpened(run, label, domain, headers) {
        if (get().comparePending?.run !== run) return;
        set({
          comparePending: null,
          compareRun: { run, label, domain, headers, summaries: new Array<EpisodeSummary | undefined>(headers.length), evaluated: 0, detection: null, problem: null, dataBase: null },
          compareShown: true,
          compareTask: null,
          compareEpisodes: { a: null, b: null },
        });
      },
      compareFailed(run, label, message) {
        if (get().comparePending?.run !== run) return;
        set({ comparePending: null });
        get().notify('error', `Could not open ${label} to compare: ${message}`);
      },
      compareProblem(run, message, dataBase) {
        if (!mine(run)) return;
        set((s) => ({ compareRun: s.compareRun && { ...s.compareRun, problem: message, dataBase: dataBase ?? s.compareRun.dataBase } }));
      },
      compareDetected(run, detection, reset) {
        if (!mine(run)) return;
        set((s) => ({
          compareRun: s.compareRun && {
            ...s.compareRun,
            detection,
            problem: null,
            dataBase: null,
            ...(reset && { summaries: new Array<EpisodeSummary | undefined>(s.compareRun.headers.length), evaluated: 0 }),
          },
        }));
      },
      compareSummarized(run, summaries, evaluated, replace) {
        const b = get().compareRun;
        if (!b || b.run !== run) return;
        const next = replace ? new Array<EpisodeSummary | undefined>(b.headers.length) : [...b.summaries];
        for (const x of summaries) next[x.index] = x;
        set({ compareRun: { ...b, summaries: next, evaluated } });
      },
      compareViewArrived(run, id, view, error) {
        const s = get();
        for (const side of ['a', 'b'] as const) {
          const ep = s.compareEpisodes[side];
          const sideRun = side === 'a' ? s.run : s.compareRun?.run;
          if (ep && ep.id === id && sideRun === run) set({ compareEpisodes: { ...s.compareEpisodes, [side]: { ...ep, view, error } } });
        }
      },
      reportArrived(_run, id, file, error) {
        const resolve = waitingReports.get(id);
        waitingReports.delete(id);
        if (get().report?.id === id) set({ report: file === null ? { id, state: 'error', error: error ?? 'the report could not be built' } : null });
        resolve?.(file);
      },
    };
  };
