/// <reference lib="webworker" />
import { dispatch, type ToWorker } from '../protocol/messages';
import { requestHandlers } from './handlers';
import { RunController } from './run-controller';

declare const self: DedicatedWorkerGlobalScope;

const handlers = requestHandlers(new RunController());

/** The worker: each request of src/protocol/messages.ts to its handler (src/worker/handlers.ts), over the run controller. */
self.onmessage = (ev: MessageEvent<ToWorker>) => dispatch(handlers, ev.data);
