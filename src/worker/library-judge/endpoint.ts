import { EvalCache, prepareSha256 } from '../../core/contract';
import { FolderJudge } from '../library/folder-library';
import { MissingData } from '../library/missing-data';
import { Asker, RemoteTau2Data, RemoteTauBenchData } from './remote-data';
import type { FromLibraryJudge, ToLibraryJudge } from './wire';

/**
 * A library judge's side of the wire, apart from the worker it runs in (library-judge.worker.ts) so specs drive it
 * directly: runs judged one at a time (the evaluator hands a judge one run at a time), once the WebAssembly sha256 is
 * ready; answers to its questions handed to the `Asker`.
 */
export class LibraryJudgeEndpoint {
  private readonly asker: Asker;
  private readonly tauBench: RemoteTauBenchData;
  private readonly tau2: RemoteTau2Data;
  private readonly judge: FolderJudge;
  private queue: Promise<void> = prepareSha256().catch(() => undefined);

  constructor(private readonly post: (m: FromLibraryJudge) => void) {
    this.asker = new Asker(post);
    const cache = new EvalCache();
    this.tauBench = new RemoteTauBenchData(this.asker, cache);
    this.tau2 = new RemoteTau2Data(this.asker);
    this.judge = new FolderJudge(this.tauBench, this.tau2, cache);
  }

  receive(m: ToLibraryJudge): void {
    if (m.type !== 'judge') return this.asker.answer(m);
    this.queue = this.queue.then(async () => {
      let answer: FromLibraryJudge;
      try {
        answer = { type: 'rows', id: m.id, rows: await this.judge.rows(m.unit) };
      } catch (e) {
        answer = { type: 'failed', id: m.id, reason: e instanceof Error ? e.message : String(e), ...(e instanceof MissingData && { missing: e.benchmark }) };
      }
      // Before the answer (which brings the next run): data this judge was to load and did not is given up, and the
      // reference replays it hashed go to the judges that ask for the data after.
      this.tau2.settleOwed();
      await this.tauBench.settleOwed();
      await this.tauBench.shareWork().catch(() => undefined);
      this.post(answer);
    });
  }
}
