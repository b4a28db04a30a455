import { createStore, type StoreApi } from 'zustand/vanilla';
import { createEpisodeSlice, type EpisodeSlice } from './episode-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createOverviewSlice, type OverviewSlice } from './overview-slice';
import { hostConsent, type HostConsent } from './consent';
import type { EvaluatorPort } from './ports';
import { createRunSlice, type RunSlice } from './run-slice';

export type AppState = RunSlice & OverviewSlice & EpisodeSlice & LayoutSlice;
export type AppStore = StoreApi<AppState>;

/** `consent`: hosts agreed to (the app passes one backed by localStorage; by default nothing is agreed). */
export function createAppStore(port: EvaluatorPort, consent: HostConsent = hostConsent()): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createRunSlice(port, consent)(...a),
    ...createOverviewSlice(port)(...a),
    ...createEpisodeSlice(port)(...a),
    ...createLayoutSlice(...a),
  }));
}
