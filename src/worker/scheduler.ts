import type { EpisodeSummary, InspectSession } from '../core/contract';
import { yieldToMessages } from './post';

/**
 * Which episode to evaluate next: rows the page says are on screen first, then file order.
 * Runs one episode at a time and yields to queued messages in between; `cancel()` (another run
 * opened, or the page asked) stops it before the next episode.
 */
export class Scheduler {
  private evaluated: Uint8Array;
  private priority: number[] = [];
  private next = 0;
  private cancelled = false;
  private readonly unsent: EpisodeSummary[] = [];
  /** More episodes may come (the file is still being read): `runAll` waits for them at the end of those it has. */
  private reading: boolean;
  /** `runAll` loops waiting for more episodes (`grow` wakes them). */
  private waiting: (() => void)[] = [];
  count = 0;

  /** `total`: the episodes to judge (those read so far, while the file is read; every one by default). */
  constructor(
    private readonly session: InspectSession,
    private readonly pause: () => Promise<void> = yieldToMessages,
    total: number = session.records.length,
  ) {
    this.evaluated = new Uint8Array(total);
    this.reading = session.reading;
  }

  /** `total` episodes may be judged now (more were read); `reading` false: that is all of them. */
  grow(total: number, reading: boolean): void {
    if (total > this.evaluated.length) {
      const more = new Uint8Array(total);
      more.set(this.evaluated);
      this.evaluated = more;
    }
    this.reading = reading;
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Stops `runAll` before the next episode (it returns false); a later `resume` or `reset` lets it run again. */
  cancel(): void {
    this.cancelled = true;
  }

  resume(): void {
    this.cancelled = false;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  get total(): number {
    return this.evaluated.length;
  }

  reset(): void {
    this.cancelled = false;
    this.unsent.length = 0;
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
   * Stops early (returns false) as soon as `live()` says the work is stale or the scheduler is cancelled.
   */
  async runAll(live: () => boolean, emit: (batch: EpisodeSummary[]) => void): Promise<boolean> {
    // Rows evaluated but not sent when an earlier run was cancelled go out with the first batch.
    const batch = this.unsent;
    let lastPost = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      emit(batch.splice(0));
      lastPost = performance.now();
    };
    for (;;) {
      if (!live() || this.cancelled) return false;
      const i = this.nextIndex();
      if (i === null && this.reading) {
        // Every episode read so far is judged: the rows go out, and the loop waits for more.
        flush();
        await new Promise<void>((wake) => this.waiting.push(wake));
        continue;
      }
      if (i === null) break;
      batch.push(this.evaluate(i));
      if (this.count <= 1 || performance.now() - lastPost > 120) flush();
      await this.pause();
    }
    flush();
    return live() && !this.cancelled;
  }
}
