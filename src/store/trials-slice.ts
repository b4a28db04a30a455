import type { StateCreator } from 'zustand/vanilla';
import { benchmarkOf, type BenchmarkView } from '../core/contract';
import type { FromWorker } from '../protocol/messages';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { StoreAccess } from './receive';

/** Another trial of the open episode's task, shown beside it ("Compare with trial…"). */
export interface TrialCompare {
  /** The episode it is compared with (the one open when asked). */
  readonly run: number;
  readonly index: number;
  /** The other trial: its view is the view of this episode of `run`. */
  readonly other: number;
  readonly view: BenchmarkView | null;
  readonly error: string | null;
}

export interface TrialsSlice {
  trialCompare: TrialCompare | null;
  /** Opens the comparison of the open episode with episode `other` (another trial of its task); null closes it. */
  compareWithTrial(other: number | null): void;
}

/** Episodes of the same task as `index` (other trials), in file order. */
export function otherTrials(headers: AppState['runs']['a']['headers'], index: number): number[] {
  const task = headers[index]?.taskId;
  if (task == null) return [];
  return headers.filter((h) => h.taskId === task && h.index !== index).map((h) => h.index);
}

export const createTrialsSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], TrialsSlice> =>
  (set, get) => ({
    trialCompare: null,

    compareWithTrial(other) {
      const { selected } = get();
      const { id: run, headers, benchmark, ready: data } = get().runs.a;
      if (other === null || run === null || selected === null || !otherTrials(headers, selected).includes(other)) {
        set({ trialCompare: null });
        return;
      }
      const ready = data !== null;
      set({
        trialCompare: {
          run,
          index: selected,
          other,
          view: null,
          error: ready ? null : `the verdicts need ${benchmarkOf(benchmark?.kind).name}’s data, which is not loaded yet`,
        },
      });
      if (ready) port.send({ type: 'view', run, episode: other });
    },
  });

/** The other trial's view: taken when it is the view of the episode shown beside the open one. */
export function trialViewArrived({ run, episode, view, error }: FromWorker<'view'>, { get, set }: StoreAccess): void {
  const c = get().trialCompare;
  if (c === null || c.run !== run || c.other !== episode) return;
  set({ trialCompare: { ...c, view, error } });
}
