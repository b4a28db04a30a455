/// <reference lib="webworker" />
import { dispatch, type ToWorker } from '../protocol/messages';
import { requestHandlers } from './handlers';
import { FolderJudge } from './library/folder-library';
import { LibraryController } from './library/library-controller';
import { RunController } from './run-controller';
import { Tau2Runs } from './tau2-runs';

declare const self: DedicatedWorkerGlobalScope;

let tau2: Tau2Runs | null = null;
const runs = new RunController((slot, run, opened, sample) => void tau2!.open(slot, run, opened.tau2, opened.label, sample, opened.shared));
tau2 = new Tau2Runs(runs.data);
const handlers = requestHandlers(runs, tau2, new LibraryController(new FolderJudge(runs.data, tau2)));

/** The worker: each request of src/protocol/messages.ts to its handler (src/worker/handlers.ts), over the run controller. */
self.onmessage = (ev: MessageEvent<ToWorker>) => dispatch(handlers, ev.data);
