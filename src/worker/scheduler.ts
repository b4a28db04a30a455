import type { EpisodeSummary, EpisodeVerdicts } from '../core/contract';
import { yieldToMessages } from './post';

/** Judging goes on at most this long before queued messages (a view, a step, cancel) get in. */
const PAUSE_MS = 8;

/**
 * Verdicts go to the page at most this often (the first at once): each post costs the page a render of the
 * list, the grid and the counts, time this machine's cores would otherwise spend judging.
 */
const POST_MS = 250;

/** Episodes judged elsewhere (the judge helper, src/worker/judge-helper/helper.ts), their verdicts handed back through `Scheduler.adopt`. */
export interface Offload {
  /** How many more episodes it takes now (0: none). */
  room(): number;
  /** Sends episodes to be judged on the data of generation `gen`; false: not sent (they are judged here). */
  send(gen: number, indices: readonly number[]): boolean;
}

/** What a scheduler judges: a run's rows one at a time, whatever its benchmark (a τ-bench `InspectSession`, a τ² run's handle). */
export interface Judged {
  /** More rows may come (the file is still being read). */
  readonly reading: boolean;
  /** Row `i` judged now (never throws: a row that cannot be judged says why in its summary). */
  evaluate(i: number): EpisodeSummary;
  /** Row `i`'s verdicts made elsewhere (an offload) taken as its row; null: they do not fit, judge it here. */
  adoptVerdicts?(i: number, verdicts: EpisodeVerdicts): EpisodeSummary | null;
}

/** An episode's state: not judged, judged (its row known), or sent to the offload. */
const TODO = 0;
const DONE = 1;
const SENT = 2;

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
  /** Episodes sent to the offload and not back yet. */
  private sent = 0;
  /** Bumped by `reset`: verdicts of an earlier generation (other data) are not adopted. */
  private gen = 0;
  private offload: Offload | null = null;
  /** `runAll` loops judging now (not waiting for episodes; an old loop may not have noticed a restart yet). */
  private judging = 0;

  /** `total`: the episodes to judge (those read so far, while the file is read; every one by default). `pause`: lets queued messages in. */
  constructor(
    private readonly session: Judged,
    private readonly pause: () => Promise<void> = yieldToMessages,
    total: number,
    /** How long judging goes on between two pauses (0: a pause after every episode). */
    private readonly sliceMs = PAUSE_MS,
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
    this.wake();
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

  /** Whether `runAll` is judging here now: false while it waits for more episodes (or for the offload's), and once it ended. */
  get busy(): boolean {
    return this.judging > 0;
  }

  get total(): number {
    return this.evaluated.length;
  }

  reset(): void {
    this.cancelled = false;
    this.unsent.length = 0;
    this.evaluated.fill(TODO);
    this.count = 0;
    this.next = 0;
    this.sent = 0;
    this.gen++;
  }

  /** The data generation (bumped by `reset`) verdicts judged elsewhere must carry to be adopted. */
  get generation(): number {
    return this.gen;
  }

  /** Episodes may be judged elsewhere too (null: only here); the first verdict is always made here. */
  useOffload(offload: Offload | null): void {
    this.offload = offload;
  }

  /**
   * Verdicts judged elsewhere on the data of generation `gen` (see `Offload`): adopted by the session
   * as if judged here, and sent with the next batch of rows. Those of another generation are dropped.
   */
  adopt(gen: number, verdicts: readonly { readonly index: number; readonly verdicts: EpisodeVerdicts }[]): void {
    if (gen !== this.gen) return;
    for (const { index, verdicts: v } of verdicts) {
      if (index < 0 || index >= this.evaluated.length || this.evaluated[index] === DONE) continue;
      if (this.evaluated[index] === SENT) this.sent--;
      this.evaluated[index] = DONE;
      this.count++;
      this.unsent.push(this.session.adoptVerdicts?.(index, v) ?? this.session.evaluate(index));
    }
    this.wake();
  }

  /** Episodes sent elsewhere that will not come back (the helper failed): judged here instead. */
  lost(gen: number, indices: readonly number[]): void {
    if (gen !== this.gen) return;
    for (const i of indices)
      if (this.evaluated[i] === SENT) {
        this.evaluated[i] = TODO;
        this.sent--;
        this.next = Math.min(this.next, i);
      }
    this.wake();
  }

  private wake(): void {
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Hands the offload the next episodes not yet judged, while it has room (never before the first verdict). */
  private offloadMore(): void {
    const o = this.offload;
    if (!o || this.count === 0) return;
    let at = this.next;
    for (let room = o.room(); room > 0; room = o.room()) {
      const picked: number[] = [];
      for (; at < this.evaluated.length && picked.length < room; at++) if (this.evaluated[at] === TODO) picked.push(at);
      if (picked.length === 0 || !o.send(this.gen, picked)) return;
      for (const i of picked) this.evaluated[i] = SENT;
      this.sent += picked.length;
    }
  }

  prioritize(indices: readonly number[]): void {
    this.priority = [...indices];
  }

  isEvaluated(i: number): boolean {
    return this.evaluated[i] === DONE;
  }

  /** Evaluates one episode (memoised by the session) and counts it. */
  evaluate(i: number): EpisodeSummary {
    const s = this.session.evaluate(i);
    if (i >= 0 && i < this.evaluated.length && this.evaluated[i] !== DONE) {
      // Judged here meanwhile (a view asked for it): its verdict from elsewhere is not adopted again.
      if (this.evaluated[i] === SENT) this.sent--;
      this.evaluated[i] = DONE;
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
   * At the very end (every episode read, none left to judge here, some still out with the offload): the
   * last one sent, judged here too, so the two threads finish together instead of this one waiting for
   * the other's queue. Whichever verdict comes first counts (`adopt` skips an episode judged here).
   */
  private stolen(): number | null {
    if (this.reading || this.sent === 0) return null;
    for (let i = this.evaluated.length - 1; i >= 0; i--) if (this.evaluated[i] === SENT) return i;
    return null;
  }

  /**
   * Evaluates every episode; `emit` gets batches at most every `POST_MS` (the first one at once).
   * Stops early (returns false) as soon as `live()` says the work is stale or the scheduler is cancelled.
   */
  async runAll(live: () => boolean, emit: (batch: EpisodeSummary[]) => void): Promise<boolean> {
    this.judging++;
    try {
      return await this.judgeAll(live, emit);
    } finally {
      this.judging--;
    }
  }

  private async judgeAll(live: () => boolean, emit: (batch: EpisodeSummary[]) => void): Promise<boolean> {
    // Rows evaluated but not sent when an earlier run was cancelled go out with the first batch.
    const batch = this.unsent;
    let lastPost = 0;
    let lastPause = performance.now();
    const flush = (): void => {
      if (batch.length === 0) return;
      emit(batch.splice(0));
      lastPost = performance.now();
    };
    for (;;) {
      if (!live() || this.cancelled) return false;
      this.offloadMore();
      const i = this.nextIndex() ?? this.stolen();
      if (i === null && (this.reading || this.sent > 0)) {
        // Every episode read so far is judged or on its way back: the rows go out (at most every POST_MS, as below:
        // the helper's verdicts come back a dozen at a time, many times as often, and each post costs the page a render),
        // and the loop waits for more.
        let later: ReturnType<typeof setTimeout> | undefined;
        if (batch.length > 0) {
          const due = lastPost + POST_MS - performance.now();
          if (due <= 0) flush();
          else later = setTimeout(() => this.wake(), due);
        }
        this.judging--;
        await new Promise<void>((wake) => this.waiting.push(wake)).finally(() => {
          this.judging++;
          clearTimeout(later);
        });
        continue;
      }
      if (i === null) break;
      batch.push(this.evaluate(i));
      const now = performance.now();
      if (this.count <= 1 || now - lastPost > POST_MS) flush();
      // Queued messages get in every few milliseconds, not after each episode: each pause costs a
      // round through the event loop (a tenth of a millisecond or more), many episodes take less.
      if (this.count <= 1 || now - lastPause >= this.sliceMs) {
        await this.pause();
        lastPause = performance.now();
      }
    }
    flush();
    return live() && !this.cancelled;
  }
}
