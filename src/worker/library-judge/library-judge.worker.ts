/// <reference lib="webworker" />
import { LibraryJudgeEndpoint } from './endpoint';
import type { FromLibraryJudge, ToLibraryJudge } from './wire';

declare const self: DedicatedWorkerGlobalScope;

const endpoint = new LibraryJudgeEndpoint((m: FromLibraryJudge) => self.postMessage(m));

/** A library judge: runs of a library folder judged beside the evaluator worker (see ./pool.ts). */
self.onmessage = (ev: MessageEvent<ToLibraryJudge>) => endpoint.receive(ev.data);
