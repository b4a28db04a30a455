import { notesFor, type EpisodeView, type StepEdit, type TranscriptView } from '../core/contract';
import { fileStem } from '../shared/file-stem';
import type { StateCreator } from 'zustand/vanilla';
import type { FromWorker } from '../protocol/messages';
import type { FileBlob } from '../protocol/wire-types';
import type { AppState } from './app-store';
import { EMPTY_LINK, formatLink } from './link';
import type { EvaluatorPort } from './ports';
import type { StoreAccess, StoreHandlers } from './receive';
import { isFailed, visibleRows } from './rows';

/** A step-cursor move by key; kept until the episode's steps are known, so no key press is lost while it loads. */
export type StepMove = 'next' | 'prev' | 'first' | 'last';

export interface EpisodeSlice {
  selected: number | null;
  /** Index into the selected episode's `view.steps`. */
  step: number;
  view: EpisodeView | null;
  viewError: string | null;
  /** The selected episode's dialogue as recorded, shown before (or without) its evaluation. */
  transcript: TranscriptView | null;
  /** `End` was pressed before the steps were known: go to the last step once they are. */
  stepToEnd: boolean;
  /** Which search hit inside the open episode is shown (taken modulo the number of hits; bumped by `,`/`.`). */
  hitIndex: number;
  /** Changes on every hit move, so the dialogue scrolls to the hit even when it is the same one. */
  hitNonce: number;
  /** A link fragment carrying the selected episode itself, once the worker made its payload. */
  share: {
    readonly index: number;
    /** The step the link opens at. */
    readonly step: number;
    readonly fragment: string | null;
    readonly error: string | null;
    /** The episode's JSON as a file, from the worker (for "Download the episode file" when the link is too long). */
    readonly file?: FileBlob;
    /** A name for that file: `<file>-episode-<index>.json`. */
    readonly fileName?: string;
  } | null;
  /** A what-if replay of the selected episode: its edits and, once back, its view. */
  whatIf: {
    readonly id: number;
    readonly index: number;
    readonly edits: readonly StepEdit[];
    readonly view: EpisodeView | null;
    readonly error: string | null;
  } | null;
  /** What-if edits per episode of the open run: kept when switching episodes, put into the link. */
  whatIfEdits: Readonly<Record<number, readonly StepEdit[]>>;
  whatIfSeq: number;

  runWhatIf(edits: readonly StepEdit[]): void;
  clearWhatIf(): void;

  /** Asks the worker for the selected episode's link payload, with the place it is shared from. */
  shareEpisode(): void;
  select(index: number | null, step?: number): void;
  setStep(step: number): void;
  /** Moves the step cursor; before the view has arrived the move is kept and applied when it does. */
  moveStep(move: StepMove): void;
  /** The next (+1) or previous (-1) episode in list order (filters and sort as shown); `failed`: only failed ones. */
  stepEpisode(delta: 1 | -1, failed?: boolean): void;
  stepHit(delta: 1 | -1): void;
  /** Asks again for the selected episode's view (and its what-if), after the open run's data or rule changed. */
  refreshView(): void;
}

/** The what-if edits a link or shared link of episode `index` carries: a τ² simulation's live in its what-if (`tau2WhatIf`), an episode's in `whatIfEdits`. */
export const sharedEdits = (s: AppState, run: number, index: number): readonly StepEdit[] => {
  if (s.runs.a.tau2 === null) return s.whatIfEdits[index] ?? [];
  const w = s.tau2WhatIf;
  return w !== null && w.run === run && w.episode === index ? w.edits : [];
};

/** The place in the selected episode a link names: a τ² simulation's selected message (null: the first), an episode's step. */
export const placeStep = (s: AppState): number | null => (s.runs.a.tau2 !== null ? s.tau2Step : s.step);

const clampStep = (view: EpisodeView | null, step: number): number => (view ? Math.max(0, Math.min(step, view.steps.length - 1)) : Math.max(0, step));

export const createEpisodeSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], EpisodeSlice> =>
  (set, get) => ({
    selected: null,
    step: 0,
    view: null,
    viewError: null,
    transcript: null,
    stepToEnd: false,
    hitIndex: 0,
    hitNonce: 0,
    share: null,
    whatIf: null,
    whatIfEdits: {},
    whatIfSeq: 0,

    runWhatIf(edits) {
      const { selected, whatIfSeq, whatIfEdits } = get();
      const { id: run, detection } = get().runs.a;
      if (run === null || selected === null) return;
      if (edits.length === 0) {
        get().clearWhatIf();
        return;
      }
      const id = whatIfSeq + 1;
      set({ whatIfSeq: id, whatIf: { id, index: selected, edits, view: null, error: null }, whatIfEdits: { ...whatIfEdits, [selected]: edits } });
      if (detection !== null) port.send({ type: 'what-if', run, id, episode: selected, edits });
    },
    clearWhatIf() {
      const { selected, whatIfEdits } = get();
      const rest = { ...whatIfEdits };
      if (selected !== null) delete rest[selected];
      set({ whatIf: null, whatIfEdits: rest, step: clampStep(get().view, get().step) });
    },

    shareEpisode() {
      const s = get();
      const { id: run, headers, source } = s.runs.a;
      const index = s.selected;
      if (run === null || index === null) return;
      const h = headers[index];
      // Shared again from a shared link: the file and index it came from, not "the link".
      const from =
        source?.embedded !== undefined && s.sharedFrom ? { file: s.sharedFrom.file, index: s.sharedFrom.index } : { file: source?.label ?? null, index };
      const notes = notesFor(s.notes, h) ?? null;
      const stem = fileStem(from.file ?? 'run');
      const step = placeStep(s) ?? 0;
      set({ share: { index, step, fragment: null, error: null, fileName: `${stem}-episode-${from.index ?? index}.json` } });
      port.send({
        type: 'share-link',
        run,
        episode: index,
        context: { file: from.file, index: from.index, step, notes, edits: sharedEdits(s, run, index) },
      });
    },

    select(index, step = 0) {
      const s = get();
      if (index === null || index < 0 || index >= s.runs.a.headers.length) {
        set({ selected: null, view: null, viewError: null, showList: true, transcript: null, stepToEnd: false, whatIf: null, trialCompare: null });
        return;
      }
      if (index === s.selected && s.view) {
        set({ step: clampStep(s.view, step), showList: false });
        return;
      }
      set({
        selected: index,
        step,
        // A τ² simulation's place is a message (a link's step=); none: its first.
        ...(s.runs.a.tau2 !== null && { tau2Step: step > 0 ? step : null }),
        view: null,
        viewError: null,
        showList: false,
        whatIf: null,
        trialCompare: null,
        stepToEnd: false,
        hitIndex: 0,
        hitNonce: s.hitNonce + 1,
        // The panel chosen stays for the next episode (reviewing one after another); a phone starts on the dialogue.
        panel: { id: s.panel.id, phone: 'dialogue' },
        transcript: s.transcript?.index === index ? s.transcript : null,
      });
      if (s.runs.a.id !== null) port.send({ type: 'transcript', run: s.runs.a.id, episode: index });
      get().refreshView();
    },
    setStep(step) {
      const s = get();
      const next = clampStep(s.view, step);
      if (next !== s.step || s.stepToEnd) set({ step: next, stepToEnd: false });
    },
    moveStep(move) {
      const s = get();
      if (s.selected === null) return;
      const view = s.whatIf?.view ?? s.view;
      if (!view) {
        // The number of steps is unknown until the view arrives: keep the intent, clamp on arrival.
        if (move === 'last') set({ stepToEnd: true });
        else set({ stepToEnd: false, step: move === 'first' ? 0 : move === 'next' ? (s.stepToEnd ? s.step : s.step + 1) : Math.max(0, s.step - 1) });
        return;
      }
      const count = view.steps.length;
      if (count === 0) return;
      const next = move === 'first' ? 0 : move === 'last' ? count - 1 : move === 'next' ? Math.min(s.step + 1, count - 1) : Math.max(s.step - 1, 0);
      if (next !== s.step) set({ step: next });
    },
    stepEpisode(delta, failed = false) {
      const s = get();
      const { headers, summaries } = s.runs.a;
      const rows = visibleRows(headers, summaries, s.filters, s.sort, s.hits);
      if (rows.length === 0) return;
      let at = s.selected === null ? -1 : rows.indexOf(s.selected);
      if (at < 0 && s.selected !== null) {
        // The open episode is filtered out: continue from where it would sit in file order.
        const after = rows.findIndex((i) => i > s.selected!);
        at = delta > 0 ? (after < 0 ? rows.length : after) - 1 : after < 0 ? rows.length : after;
      }
      for (let i = at + delta; i >= 0 && i < rows.length; i += delta) {
        const index = rows[i]!;
        if (!failed || isFailed(headers[index]!, summaries[index])) {
          get().select(index);
          return;
        }
      }
    },
    stepHit(delta) {
      set((s) => ({ hitIndex: s.hitIndex + delta, hitNonce: s.hitNonce + 1 }));
    },
    refreshView() {
      const { selected } = get();
      const { id: run, detection } = get().runs.a;
      if (run === null || selected === null || detection === null) return;
      port.send({ type: 'view', run, episode: selected });
      const saved = get().whatIfEdits[selected];
      if (saved) get().runWhatIf(saved);
    },
  });

/** The episode screen's view: taken when it is the open run's selected episode, whoever asked for it. */
export function episodeViewArrived({ run, episode, view, error }: FromWorker<'view'>, { get, set }: StoreAccess): void {
  const s = get();
  if (run !== s.runs.a.id || episode !== s.selected) return;
  set({ view, viewError: error, step: s.stepToEnd && view ? Math.max(0, view.steps.length - 1) : clampStep(view, s.step), stepToEnd: s.stepToEnd && !view });
}

export const episodeHandlers: StoreHandlers<'transcript' | 'what-if' | 'share-link'> = {
  transcript({ run, episode, transcript }, { get, set }) {
    const s = get();
    if (run === s.runs.a.id && episode === s.selected) set({ transcript });
  },
  'what-if'({ run, id, view, error }, { get, set }) {
    const s = get();
    if (run !== s.runs.a.id || s.whatIf?.id !== id) return;
    set({ whatIf: { ...s.whatIf, view, error }, step: clampStep(view ?? s.view, s.step) });
  },
  'share-link'(m, { get, set }) {
    const s = get();
    const share = s.share;
    if (m.run !== s.runs.a.id || share?.index !== m.episode) return;
    if (m.payload === null) {
      set({ share: { index: share.index, step: share.step, fragment: null, error: m.error } });
      return;
    }
    const fragment = formatLink({ ...EMPTY_LINK, ep: m.payload, data: s.dataBase, episode: 0, step: share.step });
    set({ share: { ...share, fragment, error: null, file: m.file } });
  },
};
