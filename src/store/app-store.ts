import { createStore, type StoreApi } from 'zustand/vanilla';
import { createEpisodeSlice, type EpisodeSlice } from './episode-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createOverviewSlice, type OverviewSlice } from './overview-slice';
import type { EvaluatorPort } from './ports';
import { createRunSlice, type RunSlice } from './run-slice';

export type AppState = RunSlice & OverviewSlice & EpisodeSlice & LayoutSlice;
export type AppStore = StoreApi<AppState>;

export function createAppStore(port: EvaluatorPort): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createRunSlice(port)(...a),
    ...createOverviewSlice(port)(...a),
    ...createEpisodeSlice(port)(...a),
    ...createLayoutSlice(...a),
  }));
}
