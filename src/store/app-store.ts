import { createStore, type StoreApi } from 'zustand/vanilla';
import { createEpisodeSlice, type EpisodeSlice } from './episode-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createNotesSlice, type NotesSlice } from './notes-slice';
import { memoryNotes, type NotesPort } from './notes-port';
import { createOverviewSlice, type OverviewSlice } from './overview-slice';
import { hostConsent, type HostConsent } from './consent';
import type { EvaluatorPort } from './ports';
import { createReviewSlice, type ReviewSlice } from './review-slice';
import { createRunSlice, type RunSlice } from './run-slice';
import { createShareSlice, type ShareSlice } from './share-slice';
import { createTrialsSlice, type TrialsSlice } from './trials-slice';

export type AppState = RunSlice & OverviewSlice & EpisodeSlice & LayoutSlice & NotesSlice & ShareSlice & TrialsSlice & ReviewSlice;
export type AppStore = StoreApi<AppState>;

/** `consent`: hosts agreed to (the app passes one backed by localStorage; by default nothing is agreed). */
/** `notes`: where notes are kept (IndexedDB in the app; memory by default, for tests). */
export function createAppStore(port: EvaluatorPort, consent: HostConsent = hostConsent(), notes: NotesPort = memoryNotes()): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createRunSlice(port, consent)(...a),
    ...createOverviewSlice(port)(...a),
    ...createEpisodeSlice(port)(...a),
    ...createLayoutSlice(...a),
    ...createNotesSlice(notes)(...a),
    ...createShareSlice(notes)(...a),
    ...createTrialsSlice(port)(...a),
    ...createReviewSlice(port)(...a),
  }));
}
