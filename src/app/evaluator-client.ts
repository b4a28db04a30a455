import type { FromWorker, ToWorker } from '../protocol/messages';
import type { AppStore } from '../store/app-store';
import type { EvaluatorPort } from '../store/ports';

/** The worker's side of the page: posts messages and takes them (a `Worker`, or a stand-in in specs). */
export interface WorkerLike {
  postMessage(m: ToWorker): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

/**
 * The store's evaluator port over a worker: every request of src/protocol/messages.ts is posted as
 * it is, and every message back goes to the store's `receive` (src/store/receive.ts routes it).
 */
export function connectWorker(worker: WorkerLike, devDataUrl: string): { port: EvaluatorPort; attach(store: AppStore): void } {
  const port: EvaluatorPort = { send: (m) => worker.postMessage(m) };
  const attach = (store: AppStore): void => {
    worker.onmessage = (ev) => store.getState().receive(ev.data);
    worker.onerror = (e) => store.getState().notify('error', `The evaluator stopped: ${e.message || 'unknown error'}. Reload the page to start it again.`);
    port.send({ type: 'init', devDataUrl });
  };
  return { port, attach };
}

/** The store's evaluator port backed by the app's Web Worker. */
export function connectEvaluator(): { port: EvaluatorPort; attach(store: AppStore): void } {
  const worker = new Worker(new URL('../worker/evaluator.worker.ts', import.meta.url), { type: 'module', name: 'evaluator' });
  return connectWorker(worker as WorkerLike, new URL('tau-bench-data/', document.baseURI).href);
}
