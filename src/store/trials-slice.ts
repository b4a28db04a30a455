import type { StateCreator } from 'zustand/vanilla';
import type { EpisodeView } from '../core/contract';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';

/** Another trial of the open episode's task, shown beside it ("Compare with trial…"). */
export interface TrialCompare {
  /** The episode it is compared with (the one open when asked). */
  readonly run: number;
  readonly index: number;
  readonly other: number;
  readonly id: number;
  readonly view: EpisodeView | null;
  readonly error: string | null;
}

/** Ids of these view requests live far above the episode view's, so the answers cannot be confused. */
const ID_BASE = 1_000_000_000;

export interface TrialsSlice {
  trialCompare: TrialCompare | null;
  trialSeq: number;
  /** Opens the comparison of the open episode with episode `other` (another trial of its task); null closes it. */
  compareWithTrial(other: number | null): void;
  /** Whether a view answer with this id is a trial comparison's. */
  isTrialViewId(id: number): boolean;
  trialViewArrived(run: number, id: number, view: EpisodeView | null, error: string | null): void;
}

/** Episodes of the same task as `index` (other trials), in file order. */
export function otherTrials(s: Pick<AppState, 'headers'>, index: number): number[] {
  const task = s.headers[index]?.taskId;
  if (task == null) return [];
  return s.headers.filter((h) => h.taskId === task && h.index !== index).map((h) => h.index);
}

export const createTrialsSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], TrialsSlice> =>
  (set, get) => ({
    trialCompare: null,
    trialSeq: 0,

    compareWithTrial(other) {
      const { run, selected, trialSeq, detection } = get();
      if (other === null || run === null || selected === null || !otherTrials(get(), selected).includes(other)) {
        set({ trialCompare: null });
        return;
      }
      const id = ID_BASE + trialSeq + 1;
      set({ trialSeq: trialSeq + 1, trialCompare: { run, index: selected, other, id, view: null, error: detection === null ? 'the verdicts need τ-bench’s data, which is not loaded yet' : null } });
      if (detection !== null) port.view(run, id, other);
    },
    isTrialViewId: (id) => id > ID_BASE,
    trialViewArrived(run, id, view, error) {
      const c = get().trialCompare;
      if (run !== get().run || c?.id !== id) return;
      set({ trialCompare: { ...c, view, error } });
    },
  });
