/// <reference lib="webworker" />
import { dispatch, type ToWorker } from '../protocol/messages';
import { requestHandlers } from './handlers';
import { FolderJudge } from './library/folder-library';
import { LibraryController } from './library/library-controller';
import { RunController } from './run-controller';

declare const self: DedicatedWorkerGlobalScope;

const runs = new RunController();
const handlers = requestHandlers(runs, new LibraryController(new FolderJudge(runs.tauBench, runs.tau2)));

/** The worker: each request of src/protocol/messages.ts to its handler (src/worker/handlers.ts), over the run controller. */
self.onmessage = (ev: MessageEvent<ToWorker>) => dispatch(handlers, ev.data);
