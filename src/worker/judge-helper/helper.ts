import type { InspectSession } from '../../core/contract';
import type { Offload, Scheduler } from '../scheduler';
import type { FromHelper, ToHelper } from './wire';

/** Episodes in one batch (a few tens of milliseconds of judging), and batches out at once (enough that the helper never waits while the evaluator worker parses a piece of the file). */
const BATCH = 12;
const IN_FLIGHT = 8;
/** Episodes this close in the file are sent as one piece of it, with the bytes between them. */
const GAP_BYTES = 4096;
/** A batch not answered this long: the helper is taken to hang, and stopped. */
const ANSWER_MS = 60_000;

/** A run worth a second thread: read while it is judged (a big file), or this many episodes. */
export const HELPED_EPISODES = 400;

/**
 * A second worker that judges episodes of a big run beside the evaluator worker, so a run uses two
 * cores: the scheduler hands it batches (`Offload`), it judges them on the session's data snapshot
 * (`EpisodeJudge`) and the session adopts the verdicts. Anything wrong with it (it cannot start,
 * fails, hangs) only sends its episodes back to be judged here.
 */
export class JudgeHelper implements Offload {
  private worker: Worker | null;
  /** The data generation the helper has (−1: none). */
  private gen = -1;
  private readonly batches = new Map<number, { readonly gen: number; readonly indices: readonly number[]; readonly at: number }>();
  private nextBatch = 0;
  private watchdog: ReturnType<typeof setInterval> | null = null;

  /** `read`: bytes `[start, end)` of the file (where the session's `episodeRange`s point). */
  constructor(
    private readonly session: InspectSession,
    private readonly scheduler: Scheduler,
    private readonly read: (start: number, end: number) => Uint8Array,
    make: () => Worker = () => new Worker(new URL('./judge-helper.worker.ts', import.meta.url), { type: 'module', name: 'judge-helper' }),
    /** How long a batch may go unanswered before the helper is taken to hang. */
    private readonly answerMs = ANSWER_MS,
  ) {
    try {
      this.worker = make();
      this.worker.onmessage = (ev: MessageEvent<FromHelper>) => this.answer(ev.data);
      this.worker.onerror = (ev) => {
        ev.preventDefault?.();
        this.fail();
      };
      this.worker.onmessageerror = () => this.fail();
    } catch {
      this.worker = null;
    }
  }

  /** The helper judges on the session's data from now on (nothing to do when it has the data of the scheduler's generation). */
  useData(): void {
    if (!this.worker || this.gen === this.scheduler.generation) return;
    const version = this.session.dataVersion;
    const snapshot = this.session.dataSnapshot();
    if (!version || !snapshot) return;
    const { db: _db, ...facts } = version;
    this.gen = this.scheduler.generation;
    this.post({ type: 'data', gen: this.gen, domain: this.session.domain, version: facts, snapshot });
  }

  /** Whether it takes part now (started, on the data in use). */
  get working(): boolean {
    return this.worker !== null && this.gen === this.scheduler.generation;
  }

  room(): number {
    return this.worker && this.gen === this.scheduler.generation && this.batches.size < IN_FLIGHT ? BATCH : 0;
  }

  send(gen: number, indices: readonly number[]): boolean {
    if (!this.worker || gen !== this.gen) return false;
    // The episodes' bytes as in the file, in one buffer handed over (not copied, not decoded here): episodes
    // next to each other in the file (a batch mostly is) are read as one piece, so a batch costs a read or two.
    const pieces: { start: number; end: number }[] = [];
    const spans: number[] = [];
    let size = 0;
    for (const i of indices) {
      const r = this.session.episodeRange(i);
      if (r === null) return false;
      const last = pieces[pieces.length - 1];
      if (last && r[0] >= last.end && r[0] - last.end <= GAP_BYTES) {
        size += r[1] - last.end;
        last.end = r[1];
      } else {
        pieces.push({ start: r[0], end: r[1] });
        size += r[1] - r[0];
      }
      spans.push(size - (r[1] - r[0]), size);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of pieces) {
      bytes.set(this.read(p.start, p.end), at);
      at += p.end - p.start;
    }
    const batch = this.nextBatch++;
    this.batches.set(batch, { gen, indices, at: performance.now() });
    this.watchdog ??= setInterval(() => this.check(), this.answerMs / 4);
    return this.post({ type: 'judge', gen, batch, indices, bytes, spans }, [bytes.buffer as ArrayBuffer]);
  }

  /** Stops the helper; its episodes not answered yet are judged here. */
  close(): void {
    this.worker?.terminate();
    this.worker = null;
    if (this.watchdog !== null) clearInterval(this.watchdog);
    this.watchdog = null;
    for (const b of this.batches.values()) this.scheduler.lost(b.gen, b.indices);
    this.batches.clear();
  }

  private post(m: ToHelper, transfer: Transferable[] = []): boolean {
    try {
      this.worker!.postMessage(m, transfer);
      return true;
    } catch {
      this.fail();
      return false;
    }
  }

  private answer(m: FromHelper): void {
    const b = this.batches.get(m.batch);
    if (!b) return;
    this.batches.delete(m.batch);
    if (m.type === 'judged') this.scheduler.adopt(m.gen, m.verdicts);
    else if (b.gen === this.gen) {
      // It cannot judge on the data in use (or broke): it stops, so its episodes are not sent to it again and again.
      this.scheduler.lost(b.gen, b.indices);
      this.fail();
    } else this.scheduler.lost(b.gen, b.indices);
  }

  private check(): void {
    const now = performance.now();
    for (const b of this.batches.values()) if (now - b.at > this.answerMs) return this.fail();
  }

  private fail(): void {
    this.close();
  }
}
