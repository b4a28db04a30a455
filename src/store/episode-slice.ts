import type { EpisodeView } from '../core/analysis/episode-view';
import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import { EMPTY_LINK, formatLink } from './link';
import type { EvaluatorPort } from './ports';
import { encodeEpisode } from './share-codec';

export interface EpisodeSlice {
  selected: number | null;
  /** Index into the selected episode's `view.steps`. */
  step: number;
  view: EpisodeView | null;
  viewError: string | null;
  viewId: number;
  /** A link fragment carrying the selected episode itself, once made. */
  share: { readonly index: number; readonly fragment: string | null; readonly error: string | null } | null;

  shareEpisode(): void;
  episodeJsonArrived(run: number, index: number, json: string | null): void;
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
    share: null,

    shareEpisode() {
      const { run, selected } = get();
      if (run === null || selected === null) return;
      set({ share: { index: selected, fragment: null, error: null } });
      port.episodeJson(run, selected);
    },
    episodeJsonArrived(run, index, json) {
      const s = get();
      if (run !== s.run || s.share?.index !== index) return;
      if (json === null) {
        set({ share: { index, fragment: null, error: 'this episode could not be written out' } });
        return;
      }
      const fragment = formatLink({ ...EMPTY_LINK, ep: encodeEpisode(json), data: s.dataBase, episode: 0, step: s.step });
      set({ share: { index, fragment, error: null } });
    },

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
