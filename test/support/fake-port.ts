import type { RequestName, ToWorker } from '../../src/protocol/messages';
import type { EvaluatorPort } from '../../src/store/ports';

/**
 * An evaluator port for store specs, derived from the protocol (src/protocol/messages.ts): it
 * records every request sent, in order (`calls`), and hands each to `on` when a spec wants to act
 * on it. Any request the protocol declares is taken as it is: there is no list to keep in step.
 */
export function fakePort(on?: (m: ToWorker) => void): { port: EvaluatorPort; calls: ToWorker[] } {
  const calls: ToWorker[] = [];
  const port: EvaluatorPort = {
    send(m) {
      calls.push(m);
      on?.(m);
    },
  };
  return { port, calls };
}

/** The requests of one type among those sent, typed. */
export const sent = <K extends RequestName>(calls: readonly ToWorker[], type: K): ToWorker<K>[] =>
  calls.filter((m) => m.type === type) as unknown as ToWorker<K>[];
