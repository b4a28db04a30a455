import type { StateCreator } from 'zustand/vanilla';
import { ambiguousNotesText, type EpisodeSummary } from '../core/contract';
import type { FromWorker } from '../protocol/messages';
import type { RunSource } from '../protocol/wire-types';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { StoreAccess, StoreHandlers } from './receive';
import { NO_RUN, pendingSlotOf, slotOf, type PendingRun, type RunInfo, type RunSlot, type RunState } from './run-state';
import { compareRefusal } from './tau2/compare';

/** The runs the app holds (`a` the open run, `b` one opened beside it to compare), opened and updated alike. */
export interface RunsSlice {
  samples: readonly string[] | null;
  nextRun: number;
  /** A run asked for in each slot and not open yet. */
  pending: Readonly<Record<RunSlot, PendingRun | null>>;
  runs: Readonly<Record<RunSlot, RunState>>;
  /** Open the first sample once the list arrives (no run in the link). */
  wantSample: boolean;

  /** Asks the worker for a run in `slot` under a new run id. */
  openRun(slot: RunSlot, source: RunSource, info: RunInfo, fallback?: boolean): void;
  openSample(name: string): void;
  openFile(file: File): void;
  openUrl(url: string): void;
  /** Shows the first sample when nothing else is open, keeping the message that says why. */
  openFallbackSample(): void;
  /** Stops evaluating the open run; what is evaluated stays, views are still answered. */
  stopEvaluation(): void;
  /** Goes on evaluating the open run from where it stopped. */
  resumeEvaluation(): void;
}

const sampleInfo = (name: string): RunInfo => ({ kind: 'sample', label: `${name}.json`, url: null, sample: name, file: null });

export const createRunsSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], RunsSlice> =>
  (set, get) => ({
    samples: null,
    nextRun: 1,
    pending: { a: null, b: null },
    runs: { a: NO_RUN, b: NO_RUN },
    wantSample: false,

    openRun(slot, source, info, fallback = false) {
      const run = get().nextRun;
      set((s) => ({
        nextRun: run + 1,
        pending: { ...s.pending, [slot]: { run, info, ...(fallback && { fallback }) } },
        ...(slot === 'a' && { wantSample: false }),
      }));
      port.send({ type: 'open-run', slot, run, source });
    },
    openSample: (name) => get().openRun('a', { kind: 'sample', name }, sampleInfo(name)),
    openFile(file) {
      const req = get().fileRequest;
      if (req) {
        // The file a `file=` link asked for: go to the place the link names.
        set({ fileRequest: null, place: req.place, linkView: req.view });
        if (file.name !== req.name)
          get().notify(
            'info',
            `The link was made on “${req.name.slice(0, 200)}”; you opened “${file.name.slice(0, 200)}”, so the place it names may not match.`,
          );
      }
      get().openRun('a', { kind: 'file', file }, { kind: 'file', label: file.name, url: null, sample: null, file: file.name });
    },
    openUrl: (url) => get().openRun('a', { kind: 'url', url }, { kind: 'url', label: url, url, sample: null, file: null }),
    openFallbackSample() {
      const first = get().samples?.[0];
      if (first !== undefined) get().openRun('a', { kind: 'sample', name: first }, sampleInfo(first), true);
      else set({ wantSample: true });
    },
    stopEvaluation() {
      const a = get().runs.a;
      if (a.id === null || a.stopped) return;
      set((s) => ({ runs: { ...s.runs, a: { ...a, stopped: true } } }));
      port.send({ type: 'cancel', run: a.id });
    },
    resumeEvaluation() {
      const a = get().runs.a;
      if (a.id === null || !a.stopped) return;
      set((s) => ({ runs: { ...s.runs, a: { ...a, stopped: false } } }));
      port.send({ type: 'resume', run: a.id });
    },
  });

/** Changes the open run with this id (in either slot); false when no slot holds it. */
function patchRun({ get, set }: StoreAccess, run: number, patch: (r: RunState) => Partial<RunState>): RunSlot | null {
  const slot = slotOf(get().runs, run);
  if (slot !== null) set((s) => ({ runs: { ...s.runs, [slot]: { ...s.runs[slot], ...patch(s.runs[slot]) } } }));
  return slot;
}

const unevaluated = (r: RunState): (EpisodeSummary | undefined)[] => new Array<EpisodeSummary | undefined>(r.headers.length);

/** The worker's events about runs, for both slots alike. */
export const runHandlers: StoreHandlers<
  | 'init'
  | 'run-progress'
  | 'run-opened'
  | 'run-rows'
  | 'fingerprints'
  | 'legacy-fingerprints'
  | 'run-error'
  | 'data-needed'
  | 'data-progress'
  | 'data-error'
  | 'data-ready'
  | 'summaries'
> = {
  init({ samples }, { get, set }) {
    set({ samples });
    const s = get();
    if (s.wantSample && s.runs.a.id === null && s.pending.a === null) {
      // Shown because nothing else is open: whatever was said before (a link that failed) stays.
      if (samples[0] !== undefined) s.openRun('a', { kind: 'sample', name: samples[0] }, sampleInfo(samples[0]), true);
      else set({ wantSample: false });
    }
  },
  'run-progress'({ run, loaded, total }, store) {
    const slot = pendingSlotOf(store.get().pending, run);
    if (slot !== null) store.set((s) => ({ pending: { ...s.pending, [slot]: { ...s.pending[slot]!, read: { loaded, total } } } }));
    // A run opened on its first episodes is still being read.
    else patchRun(store, run, (r) => (r.reading ? { read: { loaded, total } } : {}));
  },
  'run-opened'(m, store) {
    const s = store.get();
    // A run opened while its file was read is opened again when the whole file says otherwise (damage, another domain).
    const slot = pendingSlotOf(s.pending, m.run) ?? slotOf(s.runs, m.run);
    const pending = slot === null ? null : (s.pending[slot] ?? (s.runs[slot].source && { run: m.run, info: s.runs[slot].source }));
    if (slot === null || !pending) return;
    const ctx = m.shared?.ctx ?? null;
    // An episode shared in a link is named by where it was shared from.
    const label =
      pending.info.embedded === undefined
        ? m.label
        : ctx?.file != null
          ? `episode${ctx.index === null ? '' : ` #${ctx.index}`} of ${ctx.file}, shared in the link`
          : pending.info.label;
    const run: RunState = {
      ...NO_RUN,
      id: m.run,
      source: { ...pending.info, label },
      benchmark: m.benchmark,
      domain: m.benchmark.domain,
      domainWhy: m.domainWhy,
      headers: m.headers,
      reading: m.reading === true,
      summaries: new Array<EpisodeSummary | undefined>(m.headers.length),
    };
    const opened = { runs: { ...s.runs, [slot]: run }, pending: { ...s.pending, [slot]: null } };
    // A τ-bench run is never compared with a τ² run, whichever is opened second.
    const other = slot === 'a' ? s.runs.b : s.runs.a;
    const refused =
      other.id === null
        ? null
        : compareRefusal(
            { benchmark: (slot === 'a' ? run : other).benchmark?.kind ?? null, label: (slot === 'a' ? run : other).source?.label ?? 'run' },
            { benchmark: (slot === 'b' ? run : other).benchmark?.kind ?? null, label: (slot === 'b' ? run : other).source?.label ?? 'run' },
          );
    if (refused !== null && slot === 'b') return s.refuseCompare(refused);
    if (slot === 'a') {
      mainRunOpened(m, pending, opened, store);
      if (refused !== null) store.get().refuseCompare(refused);
    }
    // The comparison shows at once, from the top.
    else store.set({ ...opened, compareShown: true, compareTask: null, compareEpisodes: { a: null, b: null } });
  },
  'run-rows'({ run, headers, reading }, store) {
    const slot = patchRun(store, run, (r) => ({ headers: [...r.headers, ...headers], reading, ...(!reading && { read: null }) }));
    // A link's episode further on in the file is opened once its row is read.
    const s = store.get();
    if (slot === 'a' && s.place && s.place.episode < s.runs.a.headers.length) {
      const place = s.place;
      store.set({ place: null });
      s.select(place.episode, place.step ?? 0);
    }
  },
  fingerprints({ run, indices, fingerprints }, store) {
    // Only a row still without one takes it: a fingerprint never changes once a row has it (notes are kept under it).
    patchRun(store, run, (r) => {
      const headers = [...r.headers];
      indices.forEach((i, k) => {
        const h = headers[i];
        if (h && h.fingerprint === null && fingerprints[k] !== undefined) headers[i] = { ...h, fingerprint: fingerprints[k] };
      });
      return { headers };
    });
  },
  'legacy-fingerprints'({ run, indices, fingerprints, ambiguous }, store) {
    // About a run this page does not show (closed meanwhile): nothing to attach, nothing to say.
    if (slotOf(store.get().runs, run) === null) return;
    patchRun(store, run, (r) => {
      const headers = [...r.headers];
      indices.forEach((i, k) => {
        const h = headers[i];
        // A row may come twice (one fingerprint of each older format that differs from today's).
        if (h && fingerprints[k] !== undefined) headers[i] = { ...h, legacyFingerprints: [...new Set([...(h.legacyFingerprints ?? []), fingerprints[k]])] };
      });
      return { headers };
    });
    // Notes of this browser kept under an old fingerprint several rows had: said once, attached by it to none.
    const s = store.get();
    const noted = ambiguous.filter((a) => s.notes.has(a.fingerprint));
    if (noted.length > 0) s.notify('info', `${ambiguousNotesText(noted, 'rows of this run')}.`);
  },
  'run-error'({ run, label, message }, { get, set }) {
    const s = get();
    const slot = pendingSlotOf(s.pending, run);
    if (slot === null) return;
    const pending = s.pending[slot]!;
    if (slot === 'b') {
      set({ pending: { ...s.pending, b: null } });
      s.notify('error', `Could not open ${label} to compare: ${message}`);
      return;
    }
    if (pending.info.kind === 'stored' && pending.info.file !== null && s.runs.a.id === null) {
      // A link to a local file this browser does not keep: ask for the file, keep the place.
      set({ pending: { ...s.pending, a: null }, fileRequest: { name: pending.info.file, place: s.place, view: s.linkView }, place: null, linkView: null });
      return;
    }
    set({ pending: { ...s.pending, a: null }, place: null });
    s.notify('error', `Could not open ${label}: ${message}`);
    if (get().runs.a.id === null) get().openFallbackSample();
  },
  'data-needed'({ run, type: _, ...request }, store) {
    // A benchmark that shows an episode as recorded shows the open one now, not once the data is in.
    if (patchRun(store, run, () => ({ dataRequest: request, dataProgress: null })) === 'a') store.get().refreshView();
  },
  'data-progress': ({ run, type: _, ...progress }, store) => void patchRun(store, run, () => ({ dataProgress: progress })),
  'data-error': ({ run, message }, store) => void patchRun(store, run, () => ({ dataError: message, dataProgress: null })),
  'data-ready'({ run, detection, origin, why, reset, about = [] }, store) {
    const slot = patchRun(store, run, (r) =>
      reset
        ? // New data: the worker evaluates the run again from the start, stopped or not.
          {
            ready: why,
            about,
            detection,
            origin,
            dataRequest: null,
            dataProgress: null,
            dataError: null,
            summaries: unevaluated(r),
            evaluated: 0,
            threads: 1,
            stopped: false,
          }
        : { ready: why, about, detection, origin },
    );
    if (reset && slot === 'a') store.get().refreshView();
  },
  summaries({ run, summaries, evaluated, replace, threads }, store) {
    const slot = patchRun(store, run, (r) => {
      const next = replace ? unevaluated(r) : [...r.summaries];
      for (const x of summaries) next[x.index] = x;
      return { summaries: next, evaluated, threads: Math.max(r.threads, threads ?? 1) };
    });
    if (replace && slot === 'a') store.get().refreshView();
  },
};

/** The open run (slot `a`) replaced: the place and overview a link named, a shared link's context, the screens reset. */
function mainRunOpened(m: FromWorker<'run-opened'>, pending: PendingRun, opened: Pick<AppState, 'runs' | 'pending'>, { get, set }: StoreAccess): void {
  const s = get();
  const ctx = m.shared?.ctx ?? null;
  // A shared link's edits travel in its envelope; a `whatif=` in the link (edited since) wins.
  const place = s.place && ctx && !s.place.edits && ctx.edits.length ? { ...s.place, edits: ctx.edits } : s.place;
  const view = s.linkView;
  set({
    ...opened,
    linkView: null,
    fileRequest: null,
    // A link's episode not read yet is kept for `run-rows`.
    place: m.reading && place && place.episode >= m.headers.length ? place : null,
    // A file the user opened makes earlier complaints about other files moot; a sample shown
    // in place of a run that could not be opened does not: the complaint says why it is there.
    notices: pending.fallback ? s.notices : s.notices.filter((n) => n.tone !== 'error'),
    whatIf: null,
    // A comparison keeps its second run; the drill-down showed episodes of the run that was open.
    compareTask: null,
    compareEpisodes: { a: null, b: null },
    // A link's edits are its episode's what-if (judged with the episode once it is asked for).
    whatIfEdits: place?.edits ? { [place.episode]: place.edits } : {},
  });
  get().runChanged();
  void get().adoptShared(ctx, m.headers[0]?.fingerprint ?? null, m.shared?.problems ?? []);
  if (view) {
    set({ filters: view.filters, sort: view.sort, labelFilter: view.label });
    if (view.query !== get().query) get().setQuery(view.query);
  }
  if (place && place.episode < m.headers.length) get().select(place.episode, place.step ?? ctx?.step ?? 0);
}
