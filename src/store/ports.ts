import type { ToWorker } from '../protocol/messages';

/**
 * What the store asks of the evaluator (a Web Worker in the app, a fake in tests): any request of
 * src/protocol/messages.ts. Answers and events come back through the store's `receive`.
 */
export interface EvaluatorPort {
  send(m: ToWorker): void;
}
