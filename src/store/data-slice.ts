import type { StateCreator } from 'zustand/vanilla';
import type { FolderFile } from '../protocol/wire-types';
import type { AppState } from './app-store';
import type { HostConsent } from './consent';
import type { EvaluatorPort } from './ports';

/** Where τ-bench's data comes from when a run needs it: a picked folder, or a URL base the user agreed to. */
export interface DataSlice {
  /** A data URL base the user agreed to (or a link carried, from an agreed host). */
  dataBase: string | null;
  /** A data URL base a link carried from a host not agreed to: offered in the data prompt, not fetched. */
  linkDataBase: string | null;

  useFolder(name: string, files: readonly FolderFile[]): void;
  agreeToFetch(base: string, remember?: boolean): void;
}

export const createDataSlice =
  (port: EvaluatorPort, consent: HostConsent): StateCreator<AppState, [], [], DataSlice> =>
  (set, get) => ({
    dataBase: null,
    linkDataBase: null,

    useFolder(name, files) {
      // A τ² run folder (results.json at its top, simulations/ beside it) is a run to open, not data.
      if (files.some((f) => f.path.replace(/\\/g, '/').split('/').slice(1).join('/') === 'results.json')) {
        get().openRun('a', { kind: 'folder', name, files }, { kind: 'folder', label: `${name}/`, url: null, sample: null, file: null });
        return;
      }
      set((s) => ({ runs: { ...s.runs, a: { ...s.runs.a, dataError: null } } }));
      port.send({ type: 'use-folder', name, files });
      get().notify(
        'info',
        `τ-bench data: using the folder “${name}” (${files.length} JSON file${files.length === 1 ? '' : 's'}, read in this browser) for runs that are not samples.`,
      );
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
    },
  });
