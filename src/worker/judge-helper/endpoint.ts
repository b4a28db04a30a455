import { EpisodeJudge } from '../../core/contract';
import type { FromHelper, ToHelper } from './wire';

/**
 * The helper's side of the wire, apart from the worker it runs in (judge-helper.worker.ts) so it can
 * be driven directly: each message to the answer it gives (none for `data`).
 */
export class HelperEndpoint {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  /** The judge of the newest data version and its generation; a batch of another generation is answered `failed`. */
  private current: { gen: number; judge: EpisodeJudge | null; error: string } = { gen: -1, judge: null, error: 'no data yet' };

  receive(m: ToHelper): FromHelper | null {
    if (m.type === 'data') {
      try {
        this.current = { gen: m.gen, judge: new EpisodeJudge(m.domain, m.version, m.snapshot), error: '' };
      } catch (e) {
        this.current = { gen: m.gen, judge: null, error: e instanceof Error ? e.message : String(e) };
      }
      return null;
    }
    const { gen, batch } = m;
    const judge = this.current.judge;
    if (gen !== this.current.gen || !judge)
      return { type: 'failed', gen, batch, message: gen !== this.current.gen ? 'judged on other data' : this.current.error };
    try {
      const text = (k: number): string => this.decoder.decode(m.bytes.subarray(m.spans[2 * k], m.spans[2 * k + 1]));
      return { type: 'judged', gen, batch, verdicts: m.indices.map((index, k) => ({ index, verdicts: judge.judge(text(k), index) })) };
    } catch (e) {
      return { type: 'failed', gen, batch, message: e instanceof Error ? e.message : String(e) };
    }
  }
}
