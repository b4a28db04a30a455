/// <reference lib="webworker" />
import { prepareSha256 } from '../../core/contract';
import { HelperEndpoint } from './endpoint';
import type { ToHelper } from './wire';

declare const self: DedicatedWorkerGlobalScope;

const endpoint = new HelperEndpoint();
/** Messages in order (a batch after a `data` is judged on that data), once the WebAssembly sha256 is ready (its hash states are the evaluator's). */
let queue: Promise<void> = prepareSha256().catch(() => undefined);

/** The judge helper: episodes of a big run judged beside the evaluator worker (see ./helper.ts). */
self.onmessage = (ev: MessageEvent<ToHelper>) => {
  queue = queue.then(() => {
    const answer = endpoint.receive(ev.data);
    if (answer) self.postMessage(answer);
  });
};
