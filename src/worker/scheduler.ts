import type { EpisodeSummary, InspectSession } from '../core/contract';
import { yieldToMessages } from './post';

/**
 * Which episode to evaluate next: rows the page says are on screen first, then file order.
 * Runs one episode at a time and yields to queued messages in between.
 */
export class Scheduler {
  private readonly evaluated: Uint8Array;
  private priority: number[] = [];
  private next = 0;
  count = 0;

  constructor(private readonly session: InspectSession) {
    this.evaluated = new Uint8Array(session.records.length);
  }

  get total(): number {
    return this.evaluated.length;
  }

  reset(): void {
    this.evaluated.fill(0);
    this.count = 0;
    this.next = 0;
  }

  prioritize(indices: readonly number[]): void {
    this.priority = [...indices];
  }

  isEvaluated(i: number): boolean {
    return this.evaluated[i] === 1;
  }

  /** Evaluates one episode (memoised by the session) and counts it. */
  evaluate(i: number): EpisodeSummary {
    const s = this.session.evaluate(i);
    if (i >= 0 && i < this.evaluated.length && !this.evaluated[i]) {
      this.evaluated[i] = 1;
      this.count++;
    }
    return s;
  }

  private nextIndex(): number | null {
    while (this.priority.length > 0) {
      const i = this.priority.shift()!;
      if (i >= 0 && i < this.evaluated.length && !this.evaluated[i]) return i;
    }
    while (this.next < this.evaluated.length && this.evaluated[this.next]) this.next++;
    return this.next < this.evaluated.length ? this.next : null;
  }

  /**
   * Evaluates every episode; `emit` gets batches at most every 120 ms (the first one at once).
   * Stops early (returns false) as soon as `live()` says the work is stale.
   */
  async runAll(live: () => boolean, emit: (batch: EpisodeSummary[]) => void): Promise<boolean> {
    let batch: EpisodeSummary[] = [];
    let lastPost = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      emit(batch);
      batch = [];
      lastPost = performance.now();
    };
    for (;;) {
      if (!live()) return false;
      const i = this.nextIndex();
      if (i === null) break;
      batch.push(this.evaluate(i));
      if (this.count <= 1 || performance.now() - lastPost > 120) flush();
      await yieldToMessages();
    }
    flush();
    return live();
  }
}
