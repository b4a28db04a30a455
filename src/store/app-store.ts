import { createStore, type StoreApi } from 'zustand/vanilla';
import { createEpisodeSlice, type EpisodeSlice } from './episode-slice';
import { createNotesSlice, type NotesSlice } from './notes-slice';
import { memoryNotes, type NotesPort } from './notes-port';
import { createOverviewSlice, type OverviewSlice } from './overview-slice';
import type { EvaluatorPort } from './ports';
import { createRunSlice, type RunSlice } from './run-slice';

export type AppState = RunSlice & OverviewSlice & EpisodeSlice & NotesSlice;
export type AppStore = StoreApi<AppState>;

/** `notes`: where notes are kept (IndexedDB in the app; memory by default, for tests). */
export function createAppStore(port: EvaluatorPort, notes: NotesPort = memoryNotes()): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createRunSlice(port)(...a),
    ...createOverviewSlice(port)(...a),
    ...createEpisodeSlice(port)(...a),
    ...createNotesSlice(notes)(...a),
  }));
}
