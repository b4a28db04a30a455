/// <reference lib="webworker" />
import { prepareSha256 } from '../../core/contract';
import { FolderJudge } from '../library/folder-library';
import { MissingData } from '../library/missing-data';
import { Asker, RemoteTau2Data, RemoteTauBenchData } from './remote-data';
import type { FromLibraryJudge, ToLibraryJudge } from './wire';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromLibraryJudge): void => self.postMessage(m);
const asker = new Asker(post);
const judge = new FolderJudge(new RemoteTauBenchData(asker), new RemoteTau2Data(asker));
/** Runs are judged one at a time (the evaluator hands a judge one run at a time), once the WebAssembly sha256 is ready. */
let queue: Promise<void> = prepareSha256().catch(() => undefined);

/** A library judge: runs of a library folder judged beside the evaluator worker (see ./pool.ts). */
self.onmessage = (ev: MessageEvent<ToLibraryJudge>) => {
  const m = ev.data;
  if (m.type !== 'judge') return asker.answer(m);
  queue = queue.then(() =>
    judge.rows(m.unit).then(
      (rows) => post({ type: 'rows', id: m.id, rows }),
      (e: unknown) =>
        post({ type: 'failed', id: m.id, reason: e instanceof Error ? e.message : String(e), ...(e instanceof MissingData && { missing: e.benchmark }) }),
    ),
  );
};
