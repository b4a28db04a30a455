import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FromWorker } from '../protocol/messages';
import { createConsentSlice, type ConsentSlice } from './consent-slice';
import { hostConsent, type HostConsent } from './consent';
import { createDataSlice, type DataSlice } from './data-slice';
import { createEpisodeSlice, type EpisodeSlice } from './episode-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createLibrarySlice, type LibrarySlice } from './library-slice';
import { createLinkSlice, type LinkSlice } from './link-slice';
import { createNoticesSlice, type NoticesSlice } from './notices-slice';
import { createNotesSlice, type NotesSlice } from './notes-slice';
import { memoryNotes, type NotesPort } from './notes-port';
import { createOverviewSlice, type OverviewSlice } from './overview-slice';
import type { EvaluatorPort } from './ports';
import { receiver } from './receive';
import { createReviewSlice, type ReviewSlice } from './review-slice';
import { createRunsSlice, type RunsSlice } from './runs-slice';
import { createShareSlice, type ShareSlice } from './share-slice';
import { createTeachSlice, type TeachSlice } from './teach-slice';
import { createTrialsSlice, type TrialsSlice } from './trials-slice';

/** The store's side of the seam: every message from the worker goes here (src/store/receive.ts routes it). */
export interface ReceiveSlice {
  receive(m: FromWorker): void;
}

export type AppState = RunsSlice &
  NoticesSlice &
  ConsentSlice &
  DataSlice &
  LinkSlice &
  OverviewSlice &
  EpisodeSlice &
  LayoutSlice &
  NotesSlice &
  ShareSlice &
  TrialsSlice &
  ReviewSlice &
  LibrarySlice &
  TeachSlice &
  ReceiveSlice;
export type AppStore = StoreApi<AppState>;

/** `consent`: hosts agreed to (the app passes one backed by localStorage; by default nothing is agreed). */
/** `notes`: where notes are kept (IndexedDB in the app; memory by default, for tests). */
export function createAppStore(port: EvaluatorPort, consent: HostConsent = hostConsent(), notes: NotesPort = memoryNotes()): AppStore {
  return createStore<AppState>()((...a) => {
    const [set, get] = a;
    const receive = receiver({ get, set });
    return {
      ...createRunsSlice(port)(...a),
      ...createNoticesSlice(...a),
      ...createConsentSlice(consent)(...a),
      ...createDataSlice(port, consent)(...a),
      ...createLinkSlice(consent)(...a),
      ...createOverviewSlice(port)(...a),
      ...createEpisodeSlice(port)(...a),
      ...createLayoutSlice(...a),
      ...createNotesSlice(notes, port)(...a),
      ...createShareSlice(notes)(...a),
      ...createTrialsSlice(port)(...a),
      ...createReviewSlice(port)(...a),
      ...createLibrarySlice(port, consent)(...a),
      ...createTeachSlice(...a),
      receive,
    };
  });
}
