/**
 * A library judge's data: τ-bench's and τ²'s layouts (their memo of versions and DBs, as in the evaluator) whose
 * sources are the evaluator's, asked over the wire (`locate`, then each file `read`).
 */
import type { ReadText } from '../../core/contract';
import { DataLocator, type Located } from '../data-locator';
import { TauBenchData } from '../tau-bench-data';
import { Tau2Data } from '../tau2/data';
import type { DataKind, FromLibraryJudge, ToLibraryJudge } from './wire';

type Answer = Extract<ToLibraryJudge, { rid: number }>;
type Question = Extract<FromLibraryJudge, { rid: number }>;
/** A question before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'rid'> : never;

/** Questions to the evaluator and their answers, matched by `rid`. */
export class Asker {
  private next = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();

  constructor(private readonly post: (m: FromLibraryJudge) => void) {}

  private ask(m: Unnumbered<Question>): Promise<Answer> {
    const rid = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(rid, resolve);
      this.post({ ...m, rid });
    });
  }

  answer(a: Answer): void {
    const w = this.waiting.get(a.rid);
    this.waiting.delete(a.rid);
    w?.(a);
  }

  /** Where `kind`'s data of `domain` is, with a reader of its files through the evaluator. */
  async locate(kind: DataKind, domain: string): Promise<Located | null> {
    const located = await this.ask({ type: 'locate', kind, domain });
    const found = located.type === 'located' ? located.found : null;
    if (found === null) return null;
    const read: ReadText = async (path) => {
      const a = await this.ask({ type: 'read', kind, key: found.key, path });
      if (a.type !== 'text') return null;
      if (a.error !== null) throw new Error(a.error);
      return a.text;
    };
    return { key: found.key, label: found.label, origin: found.origin, read };
  }
}

/** τ-bench's data found by the evaluator: versions parsed here, once per source and domain. */
export class RemoteTauBenchData extends TauBenchData {
  constructor(private readonly asker: Asker) {
    super(new DataLocator());
  }
  override locate(domain: string): Promise<Located | null> {
    return this.asker.locate('tau-bench', domain);
  }
}

/** τ²'s data found by the evaluator: DBs loaded here, once per source and domain (knowledge documents read through the evaluator's reader). */
export class RemoteTau2Data extends Tau2Data {
  constructor(private readonly asker: Asker) {
    super(new DataLocator());
  }
  override locate(domain: string): Promise<Located | null> {
    return this.asker.locate('tau2', domain);
  }
}
