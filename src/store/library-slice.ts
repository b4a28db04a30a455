import type { StateCreator } from 'zustand/vanilla';
import type { FolderFile, LibraryProblem, LibrarySource, LibraryTable } from '../protocol/wire-types';
import type { AppState } from './app-store';
import { originOf, type HostConsent } from './consent';
import {
  BOARD_ROWS,
  NO_LIBRARY_FILTERS,
  overviewTaskId,
  type BenchmarkKind,
  type LibraryFilters,
  type LibraryStats,
  type SubmissionView,
} from '../core/contract';
import type { EvaluatorPort } from './ports';
import type { StoreHandlers } from './receive';
import { NO_FILTERS } from './rows';
import { viewFromLink, type Link } from './link';

export type LibraryTab = 'leaderboard' | 'heatmap' | 'health';
export const LIBRARY_TABS: readonly LibraryTab[] = ['leaderboard', 'heatmap', 'health'];

/** Where the open library came from, as a link can name it: a URL (reopened as it is), or a local folder or file by name (asked for again). */
export type LibraryOrigin = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'folder' | 'file'; readonly name: string };

export interface LibraryState {
  /** The request the page is waiting for (a newer one replaces it). */
  readonly id: number;
  readonly origin: LibraryOrigin | null;
  readonly loading: boolean;
  readonly progress: { readonly done: number; readonly total: number; readonly episodes: number; readonly problems: number } | null;
  readonly table: LibraryTable | null;
  /** What was read (the Parquet file's path or URL). */
  readonly via: string;
  readonly error: string | null;
  readonly problems: readonly LibraryProblem[];
  /** The picked folder's files: where a run's results file is found to open it. */
  readonly files: readonly FolderFile[];
  /** When it opened: how long from the request to the rows (ms), for the page's own timing. */
  readonly openedMs: number | null;
  /** A folder of leaderboard submissions: each entry's claims beside its trajectories (null for any other library). */
  readonly submissions?: readonly SubmissionView[] | null;
  readonly startedAt: number;
}

const NO_LIBRARY: LibraryState = {
  id: 0,
  origin: null,
  loading: false,
  progress: null,
  table: null,
  via: '',
  error: null,
  problems: [],
  files: [],
  openedMs: null,
  startedAt: 0,
};

/** A link's run of a library: its file as the index names it, and the place in it (a run's link: episode, step, filters). */
export interface LibraryRunAsk {
  readonly file: string;
  readonly link: Link;
}

/** A library link's request for a local folder or file this page cannot reopen by itself. */
export interface LibraryRequest {
  readonly kind: 'folder' | 'file';
  readonly name: string;
}

/** The library's views as the worker computed them (`library-stats`), for the newest request. */
export interface LibraryStatsState {
  /** The newest request's number. */
  readonly seq: number;
  /** Leaderboard rows asked for per benchmark and domain. */
  readonly rows: number;
  readonly pending: boolean;
  /** The newest answer (it may be for older filters while `pending`). */
  readonly stats: LibraryStats | null;
  readonly error: string | null;
}
const NO_STATS: LibraryStatsState = { seq: 0, rows: BOARD_ROWS, pending: false, stats: null, error: null };

export interface LibrarySlice {
  library: LibraryState;
  libraryStats: LibraryStatsState;
  /** Asks the worker for the views of the current filters, with `rows` leaderboard rows per benchmark and domain (default: as many as now). */
  requestLibraryStats(rows?: number): void;
  /** The library view is on screen (instead of the run). */
  libraryShown: boolean;
  libraryTab: LibraryTab;
  libraryFilters: LibraryFilters;
  /** A link named a local library: the user is asked to pick it. */
  libraryRequest: LibraryRequest | null;
  /** The run last opened from the library (its run id and the file the index names): its screen shows the way back. */
  libraryRun: { readonly run: number; readonly file: string } | null;
  /** A link's run of the library (`lib-run=`) to open once the library is read, at the link's place. */
  libraryRunAsk: LibraryRunAsk | null;

  openLibraryFolder(name: string, files: readonly FolderFile[]): void;
  openLibraryFile(file: File): void;
  openLibraryUrl(url: string): void;
  showLibrary(shown: boolean): void;
  setLibraryTab(tab: LibraryTab): void;
  setLibraryFilters(patch: Partial<LibraryFilters>): void;
  /** Opens a run of the library in the app (slot `a`), at a task (its episodes, through the overview's task filter) or whole. */
  openLibraryRun(run: number, task: string | null): void;
  /** Data arrived for these benchmarks (null: a URL base agreed to, any benchmark): a library folder some files of which could not be judged without it judges itself again. */
  libraryDataArrived(used: readonly BenchmarkKind[] | null): void;
  /** Restores a library link (`#library=`): a URL is opened (own origin or agreed), a local folder or file is asked for. */
  restoreLibrary(origin: LibraryOrigin, tab: LibraryTab, filters: LibraryFilters, run?: LibraryRunAsk | null): void;
  /** Opens the run of the library the index names `file`, at a link's place (or says why it cannot). */
  openLibraryRunAt(ask: LibraryRunAsk): void;
}

const segments = (p: string): string[] =>
  p
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');

/** `tail` is the last segments of `whole`. */
const endsWith = (whole: readonly string[], tail: readonly string[]): boolean =>
  tail.length > 0 && tail.length <= whole.length && tail.every((s, i) => whole[whole.length - tail.length + i] === s);

/** A path absolute on the machine that wrote it (`/…`, `C:\\…`, `\\\\server\\…`): an index written before files were named from its folder. */
const absolutePath = (p: string): boolean => /^([a-z]:)?[\\/]/i.test(p);

/** `rel` read from the folder `base` (both `/`-separated paths inside the picked folder); null when it leaves the picked folder. */
export function underBase(base: string, rel: string): string | null {
  const out = segments(base);
  for (const s of segments(rel))
    if (s !== '..') out.push(s);
    else if (out.length <= 1) return null;
    else out.pop();
  return out.join('/');
}

type RunFiles = { kind: 'file'; file: FolderFile } | { kind: 'folder'; name: string; files: FolderFile[] };

/** A τ² run folder of the picked files whose results.json is `<dir>/results.json`: its files re-rooted at the folder's name. */
function runFolderAt(files: readonly FolderFile[], dir: readonly string[]): RunFiles {
  const prefix = `${dir.join('/')}/`;
  const name = dir.at(-1)!;
  const inside = files
    .filter((g) => segments(g.path).join('/').startsWith(prefix))
    .map((g) => ({ path: `${name}/${segments(g.path).slice(dir.length).join('/')}`, file: g.file }));
  return { kind: 'folder', name, files: inside };
}

/**
 * The picked files of a run the index names by `file`. An index names each file from its own folder (`base`, inside
 * the picked folder): that file, or the τ² run folder there (results.json and simulations/). An older index named
 * files as it found them (absolute, or from where it was run): the picked file whose path inside the folder is the end
 * of that path (the longest such), or a run folder whose path ends it.
 */
export function findRunFiles(files: readonly FolderFile[], file: string, base: string | null = null): RunFiles | null {
  if (base !== null && !absolutePath(file)) {
    const want = underBase(base, file);
    if (want === null) return null;
    const exact = files.find((f) => segments(f.path).join('/') === want);
    if (exact) return { kind: 'file', file: exact };
    if (files.some((f) => segments(f.path).join('/') === `${want}/results.json`)) return runFolderAt(files, segments(want));
  }
  const want = segments(file);
  let best: FolderFile | null = null;
  let bestLen = 0;
  for (const f of files) {
    const inside = segments(f.path).slice(1);
    for (let drop = 0; drop < inside.length; drop++) {
      const tail = inside.slice(drop);
      if (tail.length > bestLen && endsWith(want, tail)) {
        best = f;
        bestLen = tail.length;
        break;
      }
    }
  }
  if (best) return { kind: 'file', file: best };
  // A τ² run folder: <…>/<name>/results.json with <name> the end of the indexed path.
  for (const f of files) {
    const parts = segments(f.path);
    if (parts.at(-1) !== 'results.json' || parts.length < 2) continue;
    const dir = parts.slice(0, -1);
    if (endsWith(want, dir.slice(1).length > 0 ? dir.slice(1) : dir.slice(-1))) return runFolderAt(files, dir);
  }
  return null;
}

export const createLibrarySlice =
  (port: EvaluatorPort, consent: HostConsent): StateCreator<AppState, [], [], LibrarySlice> =>
  (set, get) => {
    const open = (source: LibrarySource, origin: LibraryOrigin, files: readonly FolderFile[], show = true): void => {
      const id = get().library.id + 1;
      set({
        library: { ...NO_LIBRARY, id, origin, loading: true, files, startedAt: performance.now() },
        libraryStats: { ...NO_STATS, seq: get().libraryStats.seq },
        libraryShown: show || get().libraryShown,
        libraryRequest: null,
      });
      port.send({ type: 'open-library', id, source });
    };
    const requestStats = (rows?: number): void => {
      const lib = get().library;
      if (lib.table === null) return;
      const cur = get().libraryStats;
      const next = { ...cur, seq: cur.seq + 1, rows: rows ?? cur.rows, pending: true };
      set({ libraryStats: next });
      port.send({ type: 'library-stats', id: lib.id, seq: next.seq, filters: get().libraryFilters, rows: next.rows });
    };
    return {
      library: NO_LIBRARY,
      libraryStats: NO_STATS,
      requestLibraryStats: requestStats,
      libraryShown: false,
      libraryTab: 'leaderboard',
      libraryFilters: NO_LIBRARY_FILTERS,
      libraryRequest: null,
      libraryRun: null,
      libraryRunAsk: null,

      openLibraryFolder: (name, files) => open({ kind: 'folder', name, files }, { kind: 'folder', name }, files),
      openLibraryFile: (file) => open({ kind: 'parquet', name: file.name, file }, { kind: 'file', name: file.name }, []),
      openLibraryUrl: (url) => open({ kind: 'url', url }, { kind: 'url', url }, []),
      showLibrary: (shown) => set({ libraryShown: shown && (get().library.origin !== null || get().libraryRequest !== null) }),
      setLibraryTab: (tab) => set({ libraryTab: tab }),
      setLibraryFilters: (patch) => {
        set((s) => ({ libraryFilters: { ...s.libraryFilters, ...patch } }));
        requestStats(BOARD_ROWS);
      },

      openLibraryRun(run, task) {
        const s = get();
        const lib = s.library;
        const info = lib.table?.runs[run];
        if (!lib.table || !info) return;
        const taskId = task === null ? null : overviewTaskId(lib.table, run, task);
        const view = { filters: { ...NO_FILTERS, taskId }, sort: { key: 'index', desc: false }, query: '', label: null } as const;
        if (lib.origin?.kind === 'url') {
          if (absolutePath(info.file)) {
            s.notify(
              'error',
              `The index names ${info.file.slice(0, 300)} by a path on the machine that made it (an index written before files were named from its own folder); from ${lib.origin.url.slice(0, 300)} this browser cannot reach it. Index the folder again with tau-inspect index, or open the folder that holds the results files and runs.parquet (Open ▸ Library folder…).`,
            );
            return;
          }
          // Named from the index's folder: the same path from the index's URL, wherever the folder is published.
          const url = new URL(segments(info.file).map(encodeURIComponent).join('/'), lib.origin.url).href;
          set({ libraryShown: false, linkView: view, place: null });
          s.openUrl(url);
          set({ libraryRun: { run: get().pending.a?.run ?? -1, file: info.file } });
          return;
        }
        const base = lib.files.some((f) => f.path === lib.via)
          ? lib.via.split('/').slice(0, -1).join('/')
          : lib.origin?.kind === 'folder'
            ? lib.origin.name
            : null;
        const found = findRunFiles(lib.files, info.file, base);
        if (found === null) {
          s.notify(
            'error',
            base !== null && !absolutePath(info.file) && underBase(base, info.file) === null
              ? `The index names ${info.file.slice(0, 300)} from its folder, which leads outside the picked folder “${base.slice(0, 200)}”: pick the folder that holds the index and every results file it names.`
              : lib.files.length === 0
                ? `Only the index was opened, so the results file ${info.file.slice(0, 300)} is not reachable from this page: open the folder that holds it and runs.parquet (Open ▸ Library folder…).`
                : `The results file ${info.file.slice(0, 300)} is not in the picked folder “${lib.origin?.kind === 'folder' ? lib.origin.name.slice(0, 200) : ''}”: pick the folder that holds it and runs.parquet.`,
          );
          return;
        }
        set({ libraryShown: false, linkView: view, place: null });
        if (found.kind === 'folder')
          s.openRun(
            'a',
            { kind: 'folder', name: found.name, files: found.files },
            { kind: 'folder', label: `${found.name}/`, url: null, sample: null, file: null },
          );
        else {
          const f = found.file.file as File;
          s.openRun('a', { kind: 'file', file: f }, { kind: 'file', label: found.file.path, url: null, sample: null, file: f.name });
        }
        set({ libraryRun: { run: get().pending.a?.run ?? -1, file: info.file } });
      },

      libraryDataArrived(used) {
        const lib = get().library;
        if (lib.loading || lib.origin?.kind !== 'folder') return;
        if (!lib.problems.some((p) => p.missing !== undefined && (used === null || used.includes(p.missing)))) return;
        // The same folder judged again (its tab and filters kept), shown only if it was.
        open({ kind: 'folder', name: lib.origin.name, files: lib.files }, lib.origin, lib.files, false);
      },

      openLibraryRunAt({ file, link }) {
        const s = get();
        const run = s.library.table?.runs.findIndex((r) => r.file === file) ?? -1;
        set({ libraryRunAsk: null });
        if (run < 0) return s.notify('error', `The link names the run ${file.slice(0, 300)}, which this library does not hold; the library is shown instead.`);
        s.openLibraryRun(run, null);
        // The place the link names, not the run's start.
        if (get().libraryRun?.file === file)
          set({ place: link.episode === null ? null : { episode: link.episode, step: link.step }, linkView: viewFromLink(link) });
      },

      restoreLibrary(origin, tab, filters, run = null) {
        const cur = get().library.origin;
        if (cur !== null && JSON.stringify(cur) === JSON.stringify(origin)) {
          if (run !== null) {
            set({ libraryTab: tab, libraryFilters: filters });
            if (get().library.table) get().openLibraryRunAt(run);
            else set({ libraryRunAsk: run });
            return;
          }
          // The library open (Back to it): shown as it was left, its rows and views kept; only a change of filters is asked for.
          const refilter = JSON.stringify(filters) !== JSON.stringify(get().libraryFilters);
          set({ libraryTab: tab, libraryFilters: filters, libraryShown: true });
          if (refilter) requestStats(BOARD_ROWS);
          return;
        }
        set({ libraryTab: tab, libraryFilters: filters, libraryRunAsk: run });
        requestStats(BOARD_ROWS);
        if (origin.kind !== 'url') {
          set({ libraryRequest: { kind: origin.kind, name: origin.name }, libraryShown: true });
          return;
        }
        if (consent.agreed(origin.url)) get().openLibraryUrl(origin.url);
        else if (originOf(origin.url) === null)
          get().notify('error', `The link names a library at “${origin.url.slice(0, 200)}”, which is not an http(s) address; nothing was opened.`);
        else set({ libraryRequest: null, runRequest: { url: origin.url, library: true } });
      },
    };
  };

/** The worker's answers about libraries: only the newest request's. */
export const libraryHandlers: StoreHandlers<'open-library' | 'library-progress' | 'library-stats'> = {
  'open-library'({ id, table, problems, error, via, submissions }, { get, set }) {
    const lib = get().library;
    if (id !== lib.id || !lib.loading) return;
    set({ library: { ...lib, loading: false, table, problems, error, via, submissions: submissions ?? null, openedMs: performance.now() - lib.startedAt } });
    if (table) get().requestLibraryStats(BOARD_ROWS);
    // A link's run of the library opens once its rows are in.
    const ask = get().libraryRunAsk;
    if (table && ask) get().openLibraryRunAt(ask);
  },
  'library-stats'({ id, seq, stats, error }, { get, set }) {
    const cur = get().libraryStats;
    if (id !== get().library.id || seq !== cur.seq) return;
    set({ libraryStats: { ...cur, pending: false, stats: stats ?? cur.stats, error } });
  },
  'library-progress'({ id, type: _, ...progress }, { get, set }) {
    const lib = get().library;
    if (id === lib.id && lib.loading) set({ library: { ...lib, progress } });
  },
};
