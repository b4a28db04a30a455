import { legacyKeys, prepareSha256, type RowKeys } from '../core/contract';
import { post, yieldToMessages } from './post';

/** How long (ms) fingerprints are computed before messages (and judging) get their turn. */
export const KEY_SLICE_MS = 8;
/** The shortest wait (ms) between two `fingerprints` of the sweep (each redraws the page's rows); rows asked for go out at once. */
export const KEY_EMIT_MS = 400;
/** How often (ms) a waiting sweep looks again (whether `mayGo` lets it go on, whether its run is still open). */
const KEY_POLL_MS = 40;

/** What a `Keyer` needs of its run. */
export interface KeySource {
  /** The page's id of the run (`fingerprints` names it). */
  readonly run: number;
  /** Row `i`'s fingerprint, computed now (a hash of its content: ~0.3 ms a τ-bench episode, ~1.5 ms a τ² simulation). */
  compute(i: number): string;
  /** Row `i`'s fingerprints of older formats where they differ from today's (NaN, Infinity, big ints, integer-valued floats), after `compute(i)`. */
  legacy?(i: number): readonly string[];
  /** False once the run is closed or replaced: the sweep stops. */
  live(): boolean;
  /**
   * Whether the sweep may take its turn now (rows asked for are keyed whatever it says): a τ-bench run keeps the
   * reading thread for reading and judging, and sweeps once neither needs it. Looked at again every `KEY_POLL_MS`.
   */
  mayGo?(): boolean;
}

/**
 * The fingerprints of a run's rows, which go to the page without them (`EpisodeHeader.fingerprint` null) and get
 * them from `fingerprints` afterwards: the row opened and the rows on screen at once (`now`, `first`), the rest in a
 * sweep of slices of about `KEY_SLICE_MS` with messages handled between, posted at most every `KEY_EMIT_MS`. One
 * mechanism for τ-bench runs (run-controller.ts) and τ² runs (tau2-runs.ts).
 */
export class Keyer {
  private readonly keys: (string | null)[] = [];
  /** Older-format fingerprints of the rows whose fingerprint changed when fingerprints began to keep JSON's types. */
  private readonly legacies = new Map<number, readonly string[]>();
  /** Rows that may be keyed: those sent to the page so far. */
  private count: number;
  /** More rows may come (`grow`): the sweep waits for them at the end. */
  private reading: boolean;
  private firstQueue: number[] = [];
  /** The sweep's place, and how many rows are keyed. */
  private next = 0;
  private keyed = 0;
  /** The sweep goes on whatever `mayGo` says (a report wants every fingerprint). */
  private hurry = false;
  /** Held while another run opens in this run's slot (`hold`): the sweep waits, not competing with the new run's reading. */
  private held = 0;
  private wake: (() => void) | null = null;
  private indices: number[] = [];
  private fingerprints: string[] = [];
  /** Settles once every row is keyed (or the run is gone). */
  readonly all: Promise<void>;

  constructor(
    private readonly source: KeySource,
    count: number,
    reading = false,
  ) {
    this.count = count;
    this.reading = reading;
    this.all = this.sweep();
  }

  /** Row `i`'s fingerprint, computed now if it was not yet; null when it was (or there is no such row). */
  private key(i: number): string | null {
    if (i < 0 || i >= this.count || this.keys[i] != null) return null;
    const fp = this.source.compute(i);
    const old = this.source.legacy?.(i) ?? [];
    if (old.length > 0) this.legacies.set(i, old);
    this.keys[i] = fp;
    this.keyed++;
    return fp;
  }

  /** Row `i`'s fingerprint, computed now if need be (null: no such row). */
  fingerprint(i: number): string | null {
    this.key(i);
    return this.keys[i] ?? null;
  }

  /** Every row's fingerprint so far (null: not computed yet), with its old-format one where that differs. */
  rowKeys(): RowKeys[] {
    return Array.from({ length: this.count }, (_, i) => ({ fingerprint: this.keys[i] ?? null, legacy: this.legacies.get(i) ?? [] }));
  }

  /** Every row's fingerprint so far (null: not computed yet). */
  fingerprintList(): (string | null)[] {
    return Array.from({ length: this.count }, (_, i) => this.keys[i] ?? null);
  }

  /** Row `i` keyed and posted at once (the episode opened), unless it was already. */
  now(i: number): void {
    const fp = this.key(i);
    if (fp !== null) post({ type: 'fingerprints', run: this.source.run, indices: [i], fingerprints: [fp] });
  }

  /** Rows on screen: keyed now for up to `KEY_SLICE_MS` and posted, any left in the sweep's next slices, before the rest. */
  first(indices: readonly number[]): void {
    this.firstQueue = indices.filter((i) => i >= 0 && i < this.count && this.keys[i] == null);
    const until = performance.now() + KEY_SLICE_MS;
    while (this.firstQueue.length > 0 && performance.now() < until) this.keep(this.firstQueue.shift()!);
    this.flush();
    this.poke();
  }

  /** More rows went to the page (`reading` false: that is all of them). */
  grow(count: number, reading: boolean): void {
    this.count = Math.max(this.count, count);
    this.reading = reading;
    this.poke();
  }

  /** The sweep waits (rows asked for are still keyed) until the function returned is called. */
  hold(): () => void {
    this.held++;
    return () => {
      this.held--;
      this.poke();
    };
  }

  /** Every fingerprint, as soon as possible: the sweep no longer waits for its turn. Settles with `all`. */
  finish(): Promise<void> {
    this.hurry = true;
    this.poke();
    return this.all;
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Waits for more rows, rows asked for, or `KEY_POLL_MS` (`mayGo` may say otherwise by then, the run may be gone). */
  private pause(): Promise<void> {
    return new Promise((ok) => {
      const timer = setTimeout(() => this.poke(), KEY_POLL_MS);
      this.wake = () => {
        clearTimeout(timer);
        ok();
      };
    });
  }

  private keep(i: number): void {
    const fp = this.key(i);
    if (fp === null) return;
    this.indices.push(i);
    this.fingerprints.push(fp);
  }

  private flush(): void {
    if (this.indices.length === 0) return;
    post({ type: 'fingerprints', run: this.source.run, indices: this.indices, fingerprints: this.fingerprints });
    this.indices = [];
    this.fingerprints = [];
  }

  private async sweep(): Promise<void> {
    // ~0.3 ms an episode, ~1.5 ms a τ² simulation with the WASM sha256, several times that without.
    await prepareSha256().catch(() => undefined);
    let last = performance.now();
    while (this.source.live()) {
      const asked = this.firstQueue.length > 0;
      const go = this.hurry || (this.held === 0 && (!this.source.mayGo || this.source.mayGo()));
      if (!asked && (!go || this.next >= this.count)) {
        if (this.keyed >= this.count && !this.reading) break;
        this.flush();
        await this.pause();
        continue;
      }
      const until = performance.now() + KEY_SLICE_MS;
      while (this.firstQueue.length > 0 && performance.now() < until) this.keep(this.firstQueue.shift()!);
      if (asked) {
        // The rows on screen get their notes now, not with the sweep's next batch.
        this.flush();
        last = performance.now();
      }
      if (go) for (; this.next < this.count && performance.now() < until; this.next++) this.keep(this.next);
      if (this.next >= this.count || performance.now() - last > KEY_EMIT_MS) {
        this.flush();
        last = performance.now();
      }
      await yieldToMessages();
    }
    this.flush();
    // Every row keyed: notes kept under an old-format fingerprint go to the row that alone had it (the page is told
    // which rows those are), and the page hears of those several rows had.
    if (this.source.live() && this.legacies.size > 0) {
      const { unique, ambiguous } = legacyKeys(this.rowKeys());
      const indices = [...unique].flatMap(([i, keys]) => keys.map(() => i));
      post({ type: 'legacy-fingerprints', run: this.source.run, indices, fingerprints: [...unique.values()].flat(), ambiguous });
    }
  }
}
