import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import type { EvaluatorPort } from './ports';
import type { StoreHandlers } from './receive';
import { NO_FILTERS, type Filters, type Sort, type SortKey } from './rows';

export interface OverviewSlice {
  filters: Filters;
  sort: Sort;
  query: string;
  searchId: number;
  /** Episodes whose messages contain the query; null when there is no query. */
  hits: ReadonlySet<number> | null;
  searching: boolean;
  /** Narrow screens show either the list or the episode. */
  showList: boolean;

  setFilters(patch: Partial<Filters>): void;
  clearFilters(): void;
  sortBy(key: SortKey): void;
  setQuery(query: string): void;
  prioritize(indices: readonly number[]): void;
  runChanged(): void;
  setShowList(show: boolean): void;
}

export const createOverviewSlice =
  (port: EvaluatorPort): StateCreator<AppState, [], [], OverviewSlice> =>
  (set, get) => {
    let lastPriority = '';
    const search = (query: string): void => {
      const id = get().searchId + 1;
      const run = get().runs.a.id;
      const q = query.trim();
      // Every change of the query outdates the answers still on their way (an empty one too: an older search's hits
      // must never land on a run whose search box is empty — issue 33's "0 of 50" with nothing searched).
      if (run === null || q === '') {
        set({ searchId: id, hits: null, searching: false });
        return;
      }
      set({ searchId: id, searching: true });
      port.send({ type: 'search', run, id, query: q });
    };
    return {
      filters: NO_FILTERS,
      sort: { key: 'index', desc: false },
      query: '',
      searchId: 0,
      hits: null,
      searching: false,
      showList: true,

      setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch } })),
      clearFilters: () => {
        set({ filters: NO_FILTERS, query: '', labelFilter: null });
        search('');
      },
      sortBy: (key) => set((s) => ({ sort: s.sort.key === key ? { key, desc: !s.sort.desc } : { key, desc: false } })),
      setQuery(query) {
        set({ query });
        search(query);
      },
      prioritize(indices) {
        const run = get().runs.a.id;
        const key = `${run}:${indices.join(',')}`;
        if (run === null || key === lastPriority) return;
        lastPriority = key;
        const pending = indices.filter((i) => get().runs.a.summaries[i] === undefined);
        if (pending.length > 0) port.send({ type: 'prioritize', run, indices: pending });
      },
      runChanged() {
        lastPriority = '';
        // Deliberately: a task and a reason belong to the run (its task ids, its benchmark's reasons) and are cleared; the
        // search text, "failed only" and a label filter apply to any run and are kept, each on screen in the filter bar.
        set((s) => ({
          filters: { ...s.filters, taskId: null, reason: null },
          hits: null,
          searching: false,
          selected: null,
          view: null,
          viewError: null,
          transcript: null,
          stepToEnd: false,
          step: 0,
          showList: true,
        }));
        search(get().query);
      },
      setShowList: (showList) => set({ showList }),
    };
  };

export const overviewHandlers: StoreHandlers<'search'> = {
  search({ run, id, indices }, { get, set }) {
    if (run !== get().runs.a.id || id !== get().searchId) return;
    set({ hits: new Set(indices), searching: false });
  },
};
