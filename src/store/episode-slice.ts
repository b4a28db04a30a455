import type { EpisodeView } from '../core/analysis/episode-view';
import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';

export interface EpisodeSlice {
  selected: number | null;
  /** Index into the selected episode's `view.steps`. */
  step: number;
  view: EpisodeView | null;
  viewError: string | null;
  viewId: number;

  select(index: number | null, step?: number): void;
  setStep(step: number): void;
  refreshView(): void;
  viewArrived(run: number, id: number, view: EpisodeView | null, error: string | null): void;
}

const clampStep = (view: EpisodeView | null, step: number): number => (view ? Math.max(0, Math.min(step, view.steps.length - 1)) : Math.max(0, step));

export const createEpisodeSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], EpisodeSlice> =>
  (set, get) => ({
    selected: null,
    step: 0,
    view: null,
    viewError: null,
    viewId: 0,

    select(index, step = 0) {
      const s = get();
      if (index === null || index < 0 || index >= s.headers.length) {
        set({ selected: null, view: null, viewError: null, showList: true });
        return;
      }
      if (index === s.selected && s.view) {
        set({ step: clampStep(s.view, step), showList: false });
        return;
      }
      set({ selected: index, step, view: null, viewError: null, showList: false });
      get().refreshView();
    },
    setStep(step) {
      const s = get();
      const next = clampStep(s.view, step);
      if (next !== s.step) set({ step: next });
    },
    refreshView() {
      const { run, selected, detection, viewId } = get();
      if (run === null || selected === null || detection === null) return;
      set({ viewId: viewId + 1 });
      port.view(run, viewId + 1, selected);
    },
    viewArrived(run, id, view, error) {
      const s = get();
      if (run !== s.run || id !== s.viewId) return;
      set({ view, viewError: error, step: clampStep(view, s.step) });
    },
  });
