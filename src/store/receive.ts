import type { FromWorker, FromWorkerName } from '../protocol/messages';
import type { AppState } from './app-store';
import { dataHandlers } from './data-slice';
import { episodeHandlers, episodeViewArrived } from './episode-slice';
import { libraryHandlers } from './library-slice';
import { notesHandlers } from './notes-slice';
import { overviewHandlers } from './overview-slice';
import { compareViewArrived, reviewHandlers } from './review-slice';
import { runHandlers } from './runs-slice';
import { trialViewArrived } from './trials-slice';

/** What a handler may do with the store. */
export interface StoreAccess {
  get(): AppState;
  set(partial: Partial<AppState> | ((s: AppState) => Partial<AppState>)): void;
}

/** The store's handler of one message from the worker. */
export type StoreHandler<K extends FromWorkerName> = (m: FromWorker<K>, store: StoreAccess) => void;
export type StoreHandlers<K extends FromWorkerName = FromWorkerName> = { readonly [P in K]: StoreHandler<P> };

/**
 * One handler per event and answer of src/protocol/messages.ts (the map does not compile without
 * each). A view answer is addressed by run and episode, not by who asked: the episode screen,
 * another trial beside it and a compared run's drill-down each take it if it is the one they show.
 */
export const STORE_HANDLERS: StoreHandlers = {
  ...runHandlers,
  ...overviewHandlers,
  ...episodeHandlers,
  ...reviewHandlers,
  ...notesHandlers,
  ...libraryHandlers,
  ...dataHandlers,
  view(m, store) {
    episodeViewArrived(m, store);
    trialViewArrived(m, store);
    compareViewArrived(m, store);
  },
};

/** The store's side of the seam: a message from the worker to its handler. */
export const receiver =
  (store: StoreAccess) =>
  (m: FromWorker): void =>
    (STORE_HANDLERS[m.type] as StoreHandler<FromWorkerName>)(m as never, store);
