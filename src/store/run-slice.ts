import type { Domain } from '../core/contract';
import type { Detection, EpisodeHeader, EpisodeSummary } from '../core/contract';
import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import { decodeEdits, viewFromLink, type Link, type LinkView } from './link';
import { readShareContext, type ShareContext } from './share-codec';
import type { DataOrigin, DataProgress, DataRequest, FolderFile, RunSource, StepEdit } from '../core/contract';
import { originOf, type HostConsent } from './consent';
import type { EvaluatorPort } from './ports';

export interface RunInfo {
  readonly kind: RunSource['kind'];
  readonly label: string;
  /** Set for a run opened from a URL (it goes into links). */
  readonly url: string | null;
  readonly sample: string | null;
  /** A local file kept in this browser (it goes into links as `file=`, which only this browser can open). */
  readonly file: string | null;
  /** One episode carried in the link itself (`ep=`). */
  readonly embedded?: string;
}

export interface Notice {
  readonly id: number;
  readonly tone: 'error' | 'info';
  readonly text: string;
}

export interface RunSlice {
  samples: readonly string[] | null;
  nextRun: number;
  /** `fallback`: opened because another run could not be (the complaint about that one stays on screen). */
  pending: { readonly run: number; readonly info: RunInfo; readonly fallback?: boolean; readonly read?: { readonly loaded: number; readonly total: number | null } } | null;
  run: number | null;
  source: RunInfo | null;
  domain: Domain | null;
  domainWhy: string;
  headers: readonly EpisodeHeader[];
  summaries: readonly (EpisodeSummary | undefined)[];
  evaluated: number;
  /** The user stopped evaluating the open run (rows not evaluated stay so); cleared by resuming, new data or another run. */
  stopped: boolean;
  detection: Detection | null;
  origin: DataOrigin | null;
  /** A data URL base the user agreed to (or a link carried, from an agreed host). */
  dataBase: string | null;
  /** A data URL base a link carried from a host not agreed to: offered in the data prompt, not fetched. */
  linkDataBase: string | null;
  /** A results file URL a link carried from a host not agreed to: waits for the user's answer. */
  runRequest: { readonly url: string } | null;
  /** Origins the user agreed to remember in this browser. */
  rememberedHosts: readonly string[];
  dataRequest: DataRequest | null;
  dataProgress: DataProgress | null;
  dataError: string | null;
  notices: readonly Notice[];
  /** Open the first sample once the list arrives (no run in the link). */
  wantSample: boolean;
  /** Episode and step to show once the pending run is open (from a link). */
  place: { readonly episode: number; readonly step: number | null; readonly edits?: readonly StepEdit[] } | null;
  /** Filters, search and sort from a link, applied once the pending run is open. */
  linkView: LinkView | null;
  /**
   * A link named a local file (`file=`) this browser does not keep: the recipient must open it
   * themselves; then the app goes to the place the link names.
   */
  fileRequest: { readonly name: string; readonly place: RunSlice['place']; readonly view: LinkView | null } | null;

  restore(link: Link): void;
  openSample(name: string): void;
  openFile(file: File): void;
  openUrl(url: string): void;
  useFolder(name: string, files: readonly FolderFile[]): void;
  agreeToFetch(base: string, remember?: boolean): void;
  /** The user's answer to `runRequest`. */
  answerRunRequest(agree: boolean, remember?: boolean): void;
  forgetHosts(): void;
  notify(tone: Notice['tone'], text: string): void;
  dismissNotice(id: number): void;
  /** Stops evaluating the open run; what is evaluated stays, views are still answered. */
  stopEvaluation(): void;
  /** Goes on evaluating the open run from where it stopped. */
  resumeEvaluation(): void;

  samplesListed(names: readonly string[]): void;
  /** `shared`: a shared link's context line (version 2 `#ep=`), untrusted JSON text. */
  runOpened(run: number, label: string, domain: Domain, domainWhy: string, headers: readonly EpisodeHeader[], shared?: string): void;
  runFailed(run: number, label: string, message: string): void;
  dataNeeded(run: number, request: DataRequest): void;
  dataProgressed(run: number, progress: DataProgress): void;
  /** How much of the run being opened has been read. */
  runProgressed(run: number, loaded: number, total: number | null): void;
  dataFailed(run: number, message: string): void;
  detected(run: number, detection: Detection, origin: DataOrigin, reset: boolean): void;
  summarized(run: number, summaries: readonly EpisodeSummary[], evaluated: number, replace: boolean): void;
}

let noticeId = 0;

export const createRunSlice =
  (port: EvaluatorPort, consent: HostConsent): StateCreator<AppState, [], [], RunSlice> =>
  (set, get) => {
    const open = (source: RunSource, info: RunInfo, fallback = false): void => {
      const run = get().nextRun;
      set({ nextRun: run + 1, pending: { run, info, ...(fallback && { fallback }) }, wantSample: false });
      port.openRun(run, source);
    };
    const sampleInfo = (name: string): RunInfo => ({ kind: 'sample', label: `${name}.json`, url: null, sample: name, file: null });
    /** Shows the first sample when nothing else is open, keeping the message that says why. */
    const fallBackToSample = (): void => {
      const first = get().samples?.[0];
      if (first !== undefined) open({ kind: 'sample', name: first }, sampleInfo(first), true);
      else set({ wantSample: true });
    };
    return {
      samples: null,
      nextRun: 1,
      pending: null,
      run: null,
      source: null,
      domain: null,
      domainWhy: '',
      headers: [],
      summaries: [],
      evaluated: 0,
      stopped: false,
      detection: null,
      origin: null,
      dataBase: null,
      linkDataBase: null,
      runRequest: null,
      rememberedHosts: consent.remembered(),
      dataRequest: null,
      dataProgress: null,
      dataError: null,
      notices: [],
      wantSample: false,
      place: null,
      linkView: null,
      fileRequest: null,

      restore(link) {
        // A link never makes the app fetch from a host the user has not agreed to: it only proposes.
        if (link.data !== null) {
          if (consent.agreed(link.data)) get().agreeToFetch(link.data);
          else set({ linkDataBase: link.data });
        }
        let edits: StepEdit[] | undefined;
        if (link.whatIf != null)
          try {
            edits = decodeEdits(link.whatIf);
          } catch (e) {
            get().notify('error', `${(e as Error).message}; the episode opens without them.`);
          }
        set({ place: link.episode === null ? null : { episode: link.episode, step: link.step, ...(edits && { edits }) }, runRequest: null, linkView: viewFromLink(link), fileRequest: null });
        if (link.ep !== null) {
          // Decoded in the worker (bounded inflate): a damaged or oversized fragment comes back as run-error.
          open({ kind: 'shared', payload: link.ep }, { kind: 'shared', label: 'episode shared in the link', url: null, sample: null, file: null, embedded: link.ep });
          if (link.episode === null) set({ place: { episode: 0, step: link.step, ...(edits && { edits }) } });
        } else if (link.run !== null) {
          if (consent.agreed(link.run)) get().openUrl(link.run);
          else if (originOf(link.run) === null) get().notify('error', `The link names a results file at “${link.run.slice(0, 200)}”, which is not an http(s) address; nothing was opened.`);
          else set({ runRequest: { url: link.run } });
        }
        else if (link.sample !== null) get().openSample(link.sample);
        else if (link.file !== null) open({ kind: 'stored', name: link.file }, { kind: 'stored', label: link.file, url: null, sample: null, file: link.file });
        else {
          const samples = get().samples;
          if (samples && samples[0] !== undefined) get().openSample(samples[0]);
          else set({ wantSample: true });
        }
      },
      openSample: (name) => open({ kind: 'sample', name }, sampleInfo(name)),
      openFile(file) {
        const req = get().fileRequest;
        if (req) {
          // The file a `file=` link asked for: go to the place the link names.
          set({ fileRequest: null, place: req.place, linkView: req.view });
          if (file.name !== req.name) get().notify('info', `The link was made on “${req.name.slice(0, 200)}”; you opened “${file.name.slice(0, 200)}”, so the place it names may not match.`);
        }
        open({ kind: 'file', file }, { kind: 'file', label: file.name, url: null, sample: null, file: file.name });
      },
      openUrl: (url) => open({ kind: 'url', url }, { kind: 'url', label: url, url, sample: null, file: null }),
      useFolder(name, files) {
        set({ dataError: null });
        port.useFolder(name, files);
        get().notify('info', `τ-bench data: using the folder “${name}” (${files.length} JSON file${files.length === 1 ? '' : 's'}, read in this browser) for runs that are not samples.`);
      },
      agreeToFetch(base, remember = false) {
        const b = base.trim().replace(/\/+$/, '');
        if (!b) return;
        if (remember) consent.remember(b);
        set({ dataBase: b, linkDataBase: null, dataRequest: null, dataError: null, rememberedHosts: consent.remembered() });
        port.useDataUrl(b);
      },
      answerRunRequest(agree, remember = false) {
        const req = get().runRequest;
        if (!req) return;
        set({ runRequest: null });
        if (agree) {
          if (remember) consent.remember(req.url);
          set({ rememberedHosts: consent.remembered() });
          get().openUrl(req.url);
          return;
        }
        set({ place: null });
        if (get().run === null && get().pending === null) fallBackToSample();
      },
      forgetHosts() {
        consent.forget();
        set({ rememberedHosts: [] });
      },
      notify: (tone, text) => set((s) => ({ notices: [...s.notices.slice(-3), { id: ++noticeId, tone, text }] })),
      dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
      stopEvaluation() {
        const { run, stopped } = get();
        if (run === null || stopped) return;
        set({ stopped: true });
        port.cancel(run);
      },
      resumeEvaluation() {
        const { run, stopped } = get();
        if (run === null || !stopped) return;
        set({ stopped: false });
        port.resume(run);
      },

      samplesListed(names) {
        set({ samples: names });
        const s = get();
        if (s.wantSample && s.run === null && s.pending === null) {
          // Shown because nothing else is open: whatever was said before (a link that failed) stays.
          if (names[0] !== undefined) open({ kind: 'sample', name: names[0] }, sampleInfo(names[0]), true);
          else set({ wantSample: false });
        }
      },
      runOpened(run, label, domain, domainWhy, headers, shared) {
        const s = get();
        if (s.pending?.run !== run) return;
        let ctx: ShareContext | null = null;
        let problems: string[] = [];
        if (shared !== undefined) ({ ctx, problems } = readShareContext(shared));
        // A shared link's edits travel in its envelope; a `whatif=` in the link (edited since) wins.
        const place = s.place && ctx && !s.place.edits && ctx.edits.length ? { ...s.place, edits: ctx.edits } : s.place;
        const view = s.linkView;
        const sharedLabel = ctx?.file != null ? `episode${ctx.index === null ? '' : ` #${ctx.index}`} of ${ctx.file}, shared in the link` : s.pending.info.label;
        set({
          run,
          source: { ...s.pending.info, label: s.pending.info.embedded ? sharedLabel : label },
          linkView: null,
          fileRequest: null,
          pending: null,
          domain,
          domainWhy,
          headers,
          summaries: new Array<EpisodeSummary | undefined>(headers.length),
          evaluated: 0,
          stopped: false,
          detection: null,
          origin: null,
          dataRequest: null,
          dataProgress: null,
          dataError: null,
          place: null,
          // A file the user opened makes earlier complaints about other files moot; a sample shown
          // in place of a run that could not be opened does not: the complaint says why it is there.
          notices: s.pending.fallback ? s.notices : s.notices.filter((n) => n.tone !== 'error'),
          whatIf: null,
          // A comparison keeps its second run; the drill-down showed episodes of the run that was open.
          compareTask: null,
          compareEpisodes: { a: null, b: null },
          whatIfEdits: place?.edits ? { [place.episode]: place.edits } : {},
        });
        get().runChanged();
        void get().adoptShared(ctx, headers[0]?.fingerprint ?? null, problems);
        if (view) {
          set({ filters: view.filters, sort: view.sort, labelFilter: view.label });
          if (view.query !== get().query) get().setQuery(view.query);
        }
        if (place && place.episode < headers.length) get().select(place.episode, place.step ?? ctx?.step ?? 0);
      },
      runFailed(run, label, message) {
        const pending = get().pending;
        if (pending?.run !== run) return;
        if (pending.info.kind === 'stored' && pending.info.file !== null && get().run === null) {
          // A link to a local file this browser does not keep: ask for the file, keep the place.
          set({ pending: null, fileRequest: { name: pending.info.file, place: get().place, view: get().linkView }, place: null, linkView: null });
          return;
        }
        set({ pending: null, place: null });
        get().notify('error', `Could not open ${label}: ${message}`);
        if (get().run === null) fallBackToSample();
      },
      dataNeeded(run, request) {
        if (run === get().run) set({ dataRequest: request, dataProgress: null });
      },
      dataProgressed(run, progress) {
        if (run === get().run) set({ dataProgress: progress });
      },
      runProgressed(run, loaded, total) {
        const p = get().pending;
        if (p?.run === run) set({ pending: { ...p, read: { loaded, total } } });
      },
      dataFailed(run, message) {
        if (run === get().run) set({ dataError: message, dataProgress: null });
      },
      detected(run, detection, origin, reset) {
        if (run !== get().run) return;
        set(
          reset
            ? // New data: the worker evaluates the run again from the start, stopped or not.
              { detection, origin, dataRequest: null, dataProgress: null, dataError: null, summaries: new Array<EpisodeSummary | undefined>(get().headers.length), evaluated: 0, stopped: false }
            : { detection, origin },
        );
        if (reset) get().refreshView();
      },
      summarized(run, summaries, evaluated, replace) {
        if (run !== get().run) return;
        const next = replace ? new Array<EpisodeSummary | undefined>(get().headers.length) : [...get().summaries];
        for (const x of summaries) next[x.index] = x;
        set({ summaries: next, evaluated });
        if (replace) get().refreshView();
      },
    };
  };
