import type { EpisodeView } from '../core/contract';
import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import { EMPTY_LINK, encodeEdits, formatLink } from './link';
import type { StepEdit } from '../core/contract';
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
  /** A what-if replay of the selected episode: its edits and, once back, its view. */
  whatIf: { readonly id: number; readonly index: number; readonly edits: readonly StepEdit[]; readonly view: EpisodeView | null; readonly error: string | null } | null;
  /** What-if edits per episode of the open run: kept when switching episodes, put into the link. */
  whatIfEdits: Readonly<Record<number, readonly StepEdit[]>>;
  whatIfSeq: number;

  runWhatIf(edits: readonly StepEdit[]): void;
  whatIfArrived(run: number, id: number, view: EpisodeView | null, error: string | null): void;
  clearWhatIf(): void;

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
    whatIf: null,
    whatIfEdits: {},
    whatIfSeq: 0,

    runWhatIf(edits) {
      const { run, selected, whatIfSeq, detection, whatIfEdits } = get();
      if (run === null || selected === null) return;
      if (edits.length === 0) {
        get().clearWhatIf();
        return;
      }
      const id = whatIfSeq + 1;
      set({ whatIfSeq: id, whatIf: { id, index: selected, edits, view: null, error: null }, whatIfEdits: { ...whatIfEdits, [selected]: edits } });
      if (detection !== null) port.whatIf(run, id, selected, edits);
    },
    whatIfArrived(run, id, view, error) {
      const s = get();
      if (run !== s.run || s.whatIf?.id !== id) return;
      set({ whatIf: { ...s.whatIf, view, error }, step: clampStep(view ?? s.view, s.step) });
    },
    clearWhatIf() {
      const { selected, whatIfEdits } = get();
      const rest = { ...whatIfEdits };
      if (selected !== null) delete rest[selected];
      set({ whatIf: null, whatIfEdits: rest, step: clampStep(get().view, get().step) });
    },

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
      const edits = s.whatIfEdits[index];
      const fragment = formatLink({ ...EMPTY_LINK, ep: encodeEpisode(json), data: s.dataBase, episode: 0, step: s.step, whatIf: edits ? encodeEdits(edits) : null });
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
      set({ selected: index, step, view: null, viewError: null, showList: false, whatIf: null });
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
      const saved = get().whatIfEdits[selected];
      if (saved) get().runWhatIf(saved);
    },
    viewArrived(run, id, view, error) {
      const s = get();
      if (run !== s.run || id !== s.viewId) return;
      set({ view, viewError: error, step: clampStep(view, s.step) });
    },
  });
