import type { StateCreator } from 'zustand/vanilla';
import { BENCHMARKS, benchmarkOf, type BenchmarkKind } from '../core/contract';
import type { FolderFile } from '../protocol/wire-types';
import type { AppState } from './app-store';
import type { HostConsent } from './consent';
import type { EvaluatorPort } from './ports';
import type { StoreHandlers } from './receive';

/**
 * Where each benchmark's data comes from when a run needs it: a folder picked for it (one per benchmark, each kept when
 * the other's is picked), or a URL base the user agreed to.
 */
export interface DataSlice {
  /** A data URL base the user agreed to (or a link carried, from an agreed host). */
  dataBase: string | null;
  /** A data URL base a link carried from a host not agreed to: offered in the data prompt, not fetched. */
  linkDataBase: string | null;
  /** The folders picked whose answer (`use-folder`: which benchmarks took them) has not come yet, by request id. */
  foldersAsked: readonly number[];

  /** A folder picked for `benchmark`'s data (null: dropped, for whichever benchmark's data it holds), or a τ² run folder to open. */
  useFolder(name: string, files: readonly FolderFile[], benchmark?: BenchmarkKind | null): void;
  agreeToFetch(base: string, remember?: boolean): void;
}

export const createDataSlice =
  (port: EvaluatorPort, consent: HostConsent): StateCreator<AppState, [], [], DataSlice> =>
  (set, get) => ({
    dataBase: null,
    linkDataBase: null,
    foldersAsked: [],

    useFolder(name, files, benchmark = null) {
      // A τ² run folder (results.json at its top, simulations/ beside it) is a run to open, not data.
      if (files.some((f) => f.path.replace(/\\/g, '/').split('/').slice(1).join('/') === 'results.json')) {
        get().openRun('a', { kind: 'folder', name, files }, { kind: 'folder', label: `${name}/`, url: null, sample: null, file: null });
        return;
      }
      const id = (get().foldersAsked.at(-1) ?? 0) + 1;
      set((s) => ({ runs: { ...s.runs, a: { ...s.runs.a, dataError: null } }, foldersAsked: [...s.foldersAsked, id] }));
      port.send({ type: 'use-folder', id, name, files, benchmark });
    },
    agreeToFetch(base, remember = false) {
      const b = base.trim().replace(/\/+$/, '');
      if (!b) return;
      if (remember) consent.remember(b);
      set((s) => ({
        dataBase: b,
        linkDataBase: null,
        runs: { ...s.runs, a: { ...s.runs.a, dataRequest: null, dataError: null } },
        rememberedHosts: consent.remembered(),
      }));
      port.send({ type: 'use-data-url', base: b });
      get().libraryDataArrived(null);
    },
  });

/** Each benchmark's name, for a folder that holds none of their data. */
const ALL_NAMES = Object.values(BENCHMARKS)
  .map((b) => b.name)
  .join(' nor ');

/** The worker's answer to a picked folder: which benchmarks' data it now is, said by their names; a library waiting for that data judges itself again. */
export const dataHandlers: StoreHandlers<'use-folder'> = {
  'use-folder'({ id, name, meant, used }, { get, set }) {
    const s = get();
    if (!s.foldersAsked.includes(id)) return;
    set({ foldersAsked: s.foldersAsked.filter((x) => x !== id) });
    const folder = `“${name.slice(0, 200)}”`;
    if (used.length > 0) {
      const names = used.map((k) => benchmarkOf(k).name);
      s.notify(
        'info',
        `${names.map((n) => `${n} data`).join(' and ')}: using the folder ${folder} (read in this browser) for ${names.join(' and ')} runs that are not samples.`,
      );
      s.libraryDataArrived(used);
      return;
    }
    const bench = meant === null ? null : benchmarkOf(meant);
    s.notify(
      'error',
      bench
        ? `${folder} holds no ${bench.name} data files (laid out as ${bench.layout('<domain>')}); the ${bench.dataFolder} picked before, if any, is kept.`
        : `${folder} holds neither ${ALL_NAMES} data files: nothing changed.`,
    );
  },
};
