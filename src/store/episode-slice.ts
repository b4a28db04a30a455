import {
  benchmarkOf,
  movedStep,
  notesFor,
  stepAt,
  whatIfScreen,
  type BenchmarkView,
  type BenchmarkWhatIf,
  type DbSide,
  type StateAtStep,
  type StepEdit,
  type StepMove,
  type TranscriptView,
} from '../core/contract';
import { fileStem } from '../formats/file-stem';
import type { StateCreator } from 'zustand/vanilla';
import type { FromWorker } from '../protocol/messages';
import type { FileBlob } from '../protocol/wire-types';
import type { AppState } from './app-store';
import { EMPTY_LINK, formatLink } from './link';
import type { EvaluatorPort } from './ports';
import type { StoreAccess, StoreHandlers } from './receive';
import { isFailed, visibleRows } from './rows';
import { runReady } from './run-state';

/** A step-cursor move by key; kept until the episode's steps are known, so no key press is lost while it loads. */
export type { StepMove };

/** A record asked for in the state panel: a table and a key (or the start of one). */
export interface RecordAsk {
  readonly table: string;
  readonly key: string | null;
}

/** The question the state panel asked last (a DB after a step), and its answer once there. */
export interface StateAsk {
  readonly run: number;
  readonly episode: number;
  readonly message: number;
  readonly db: DbSide;
  readonly record: RecordAsk | null;
  readonly state: StateAtStep | null;
  readonly error: string | null;
}

export interface EpisodeSlice {
  selected: number | null;
  /** The step cursor: a step of the selected episode's view (see core/view/steps.ts: a τ-bench step index, a τ² message index). */
  step: number;
  /** The selected episode's screen data, whatever its benchmark (`view.benchmark`). */
  view: BenchmarkView | null;
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
    readonly run: number;
    readonly index: number;
    readonly edits: readonly StepEdit[];
    readonly view: BenchmarkWhatIf | null;
    readonly error: string | null;
  } | null;
  /** What-if edits per episode of the open run: kept when switching episodes, put into the link. */
  whatIfEdits: Readonly<Record<number, readonly StepEdit[]>>;
  whatIfSeq: number;

  runWhatIf(edits: readonly StepEdit[]): void;
  clearWhatIf(): void;

  /** Which DB the state panel shows (the agent's, or telecom's user device), the record asked for, and the last question with its answer. */
  stateDb: DbSide;
  stateRecord: RecordAsk | null;
  stateAsk: StateAsk | null;
  setStateDb(db: DbSide): void;
  setStateRecord(record: RecordAsk | null): void;
  /** Asks the worker for the state panel's DB at the selected step (once per distinct question). */
  askState(): void;

  /** The selected episode's audio (a voice simulation's recording), asked for by a panel that plays it; `blob` null until back or when there is none (`error`). */
  audio: { readonly run: number; readonly episode: number; readonly blob: Blob | null; readonly path: string | null; readonly error: string | null } | null;
  /** Asks the worker for the selected episode's audio, once per episode (a panel that plays it calls this when it opens). */
  askAudio(): void;

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

/** The what-if edits a link or shared link of episode `index` carries. */
export const sharedEdits = (s: AppState, _run: number, index: number): readonly StepEdit[] => s.whatIfEdits[index] ?? [];

/** The place in the selected episode a link names: its step. */
export const placeStep = (s: AppState): number => s.step;

/** The screen data shown: the what-if's when one is back, else the episode's. */
export const shownView = (s: Pick<AppState, 'view' | 'whatIf'>): BenchmarkView | null => (s.whatIf?.view ? whatIfScreen(s.whatIf.view) : s.view);

const clampStep = (view: BenchmarkView | null, step: number): number => (view ? stepAt(view, step) : Math.max(0, step));

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
    stateDb: 'agent',
    stateRecord: null,
    stateAsk: null,
    audio: null,

    askAudio() {
      const s = get();
      const run = s.runs.a.id;
      if (run === null || s.selected === null || !runReady(s.runs.a)) return;
      if (s.audio?.run === run && s.audio.episode === s.selected) return;
      set({ audio: { run, episode: s.selected, blob: null, path: null, error: null } });
      port.send({ type: 'audio', run, episode: s.selected });
    },

    runWhatIf(edits) {
      const { selected, whatIfSeq, whatIfEdits } = get();
      const run = get().runs.a.id;
      if (run === null || selected === null) return;
      if (edits.length === 0) {
        get().clearWhatIf();
        return;
      }
      const id = whatIfSeq + 1;
      set({ whatIfSeq: id, whatIf: { id, run, index: selected, edits, view: null, error: null }, whatIfEdits: { ...whatIfEdits, [selected]: edits } });
      if (runReady(get().runs.a)) port.send({ type: 'what-if', run, id, episode: selected, edits });
    },
    clearWhatIf() {
      const { selected, whatIfEdits } = get();
      const rest = { ...whatIfEdits };
      if (selected !== null) delete rest[selected];
      set({ whatIf: null, whatIfEdits: rest, step: clampStep(get().view, get().step) });
    },
    setStateDb(db) {
      set({ stateDb: db, stateRecord: null });
    },
    setStateRecord(record) {
      set({ stateRecord: record });
    },
    askState() {
      const s = get();
      const view = shownView(s);
      const run = s.runs.a.id;
      if (!view || run === null || s.selected === null) return;
      const message = stepAt(view, s.step);
      const { stateDb: db, stateRecord: record, stateAsk: last } = s;
      if (
        last &&
        last.run === run &&
        last.episode === s.selected &&
        last.message === message &&
        last.db === db &&
        last.record?.table === record?.table &&
        last.record?.key === record?.key
      )
        return;
      set({ stateAsk: { run, episode: s.selected, message, db, record, state: last?.state ?? null, error: null } });
      port.send({ type: 'state-at-step', run, episode: s.selected, message, db, record });
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
        view: null,
        viewError: null,
        showList: false,
        whatIf: null,
        trialCompare: null,
        stateRecord: null,
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
      const view = shownView(s);
      if (!view) {
        // The number of steps is unknown until the view arrives: keep the intent, clamp on arrival.
        if (move === 'last') set({ stepToEnd: true });
        else set({ stepToEnd: false, step: move === 'first' ? 0 : move === 'next' ? (s.stepToEnd ? s.step : s.step + 1) : Math.max(0, s.step - 1) });
        return;
      }
      const next = movedStep(view, s.step, move);
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
      const run = get().runs.a.id;
      const a = get().runs.a;
      // Without its data (asked for, or failed), a benchmark whose run shows the episode as recorded (its descriptor says so).
      const recorded = (a.dataRequest !== null || a.dataError !== null) && a.benchmark !== null && benchmarkOf(a.benchmark.kind).viewBeforeData;
      if (run === null || selected === null || (!runReady(a) && !recorded)) return;
      port.send({ type: 'view', run, episode: selected });
      const saved = get().whatIfEdits[selected];
      if (saved) get().runWhatIf(saved);
    },
  });

/** The episode screen's view: taken when it is the open run's selected episode, whoever asked for it. */
export function episodeViewArrived({ run, episode, view, error }: FromWorker<'view'>, { get, set }: StoreAccess): void {
  const s = get();
  if (run !== s.runs.a.id || episode !== s.selected) return;
  set({ view, viewError: error, step: s.stepToEnd && view ? movedStep(view, s.step, 'last') : clampStep(view, s.step), stepToEnd: s.stepToEnd && !view });
}

export const episodeHandlers: StoreHandlers<'transcript' | 'what-if' | 'share-link' | 'state-at-step' | 'audio'> = {
  audio({ run, episode, audio, path, error }, { get, set }) {
    const want = get().audio;
    if (want?.run === run && want.episode === episode) set({ audio: { run, episode, blob: audio, path, error } });
  },
  'state-at-step'(m, { get, set }) {
    const want = get().stateAsk;
    if (want === null || want.run !== m.run || want.episode !== m.episode) return;
    // Answers come in the order asked: an older one still stands in until the newest arrives.
    set({ stateAsk: { ...want, state: m.state ?? want.state, error: m.error } });
  },
  transcript({ run, episode, transcript }, { get, set }) {
    const s = get();
    if (run === s.runs.a.id && episode === s.selected) set({ transcript });
  },
  'what-if'({ run, id, view, error }, { get, set }) {
    const s = get();
    if (run !== s.runs.a.id || s.whatIf?.id !== id) return;
    set({ whatIf: { ...s.whatIf, view, error }, step: clampStep(view ? whatIfScreen(view) : s.view, s.step) });
  },
  'share-link'(m, { get, set }) {
    const s = get();
    const share = s.share;
    if (m.run !== s.runs.a.id || share?.index !== m.episode) return;
    if (m.payload === null) {
      set({ share: { index: share.index, step: share.step, fragment: null, error: m.error } });
      return;
    }
    // Shared from teaching mode: the link opens in it too.
    const fragment = formatLink({ ...EMPTY_LINK, ep: m.payload, data: s.dataBase, episode: 0, step: share.step, ...(s.teach !== null && { teach: true }) });
    set({ share: { ...share, fragment, error: null, file: m.file } });
  },
};
