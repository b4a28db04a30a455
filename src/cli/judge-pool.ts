/**
 * Worker threads judging the episodes of one τ-bench file for `evaluate --json` (`--jobs N`): the main
 * thread reads and splits the file as it streams in and prints the lines in file order; the workers
 * judge batches of episodes from their bytes on the session's data snapshot (core's `EpisodeJudge`,
 * as the app's judge helper) and answer with each episode's report line and verdicts, which the
 * session adopts as if it had judged them. A worker is this very module (or the bundle holding it)
 * started again with `workerData.tauInspectJudge`.
 */
import { createHash } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  EpisodeJudge,
  prepareSha256,
  setHostSha256,
  type DataSnapshot,
  type Domain,
  type EpisodeVerdicts,
  type InspectSession,
  type RewardRule,
  type VersionFacts,
} from '../core/contract';
import { workerEntry } from './worker-entry';

type ToJudge =
  /** The data version batches of generation `gen` are judged on. */
  | { readonly type: 'data'; readonly gen: number; readonly domain: Domain; readonly version: VersionFacts; readonly snapshot: DataSnapshot }
  /** Episodes `indices` (episode k's line marked `revised[k]`), episode k being `bytes[spans[2k], spans[2k + 1])` (UTF-8 JSON as in the file). */
  | {
      readonly type: 'judge';
      readonly id: number;
      readonly gen: number;
      readonly rule: RewardRule;
      readonly revised: readonly boolean[];
      readonly indices: readonly number[];
      readonly bytes: Uint8Array;
      readonly spans: readonly number[];
    };

/** Each episode's line, whether its recorded gt_data_hash is not this version's, and its verdicts. */
export interface JudgedBatch {
  readonly lines: readonly string[];
  readonly misfits: readonly boolean[];
  readonly verdicts: readonly EpisodeVerdicts[];
}

type FromJudge = ({ readonly id: number } & JudgedBatch) | { readonly id: number; readonly error: string };

/** Whether this thread is a judge worker (the CLI's entry then leaves `main` alone). */
export const isJudgeWorker = (): boolean => !isMainThread && (workerData as { tauInspectJudge?: boolean } | null)?.tauInspectJudge === true;

/** In a judge worker: keeps the newest data and answers each batch with its lines (or why it has none). */
function startJudgeWorker(): void {
  // The host's sha256 here too (the same hashes, faster than the WASM one the core falls back to).
  setHostSha256(() => createHash('sha256'));
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let current: { gen: number; judge: EpisodeJudge | null; error: string } = { gen: -1, judge: null, error: 'no data yet' };
  const ready = prepareSha256();
  parentPort!.on('message', (m: ToJudge) => {
    if (m.type === 'data') {
      try {
        current = { gen: m.gen, judge: new EpisodeJudge(m.domain, m.version, m.snapshot), error: '' };
      } catch (e) {
        current = { gen: m.gen, judge: null, error: e instanceof Error ? e.message : String(e) };
      }
      return;
    }
    void ready.then(() => {
      let answer: FromJudge;
      try {
        const judge = current.judge;
        if (m.gen !== current.gen || !judge) throw new Error(m.gen !== current.gen ? 'judged on other data' : current.error);
        const lines: string[] = [];
        const misfits: boolean[] = [];
        const verdicts: EpisodeVerdicts[] = [];
        m.indices.forEach((index, k) => {
          const r = judge.reportLine(decoder.decode(m.bytes.subarray(m.spans[2 * k], m.spans[2 * k + 1])), index, m.rule, m.revised[k]!);
          lines.push(r.line);
          misfits.push(r.misfit);
          verdicts.push(r.verdicts);
        });
        answer = { id: m.id, lines, misfits, verdicts };
      } catch (e) {
        answer = { id: m.id, error: e instanceof Error ? e.message : String(e) };
      }
      parentPort!.postMessage(answer);
    });
  });
}

/**
 * `jobs` judge workers. `useData` sends them the data (a new generation); `judge` hands a batch to the
 * worker with the fewest batches out and resolves with its lines, or null when no worker could judge it
 * (a worker that failed or stopped: the caller judges those episodes itself). `close` ends them.
 */
export class JudgePool {
  private readonly workers: { readonly worker: Worker; out: number; alive: boolean }[] = [];
  private readonly pending = new Map<number, { readonly worker: Worker; readonly resolve: (b: JudgedBatch | null) => void }>();
  private next = 0;
  private gen = -1;

  constructor(jobs: number) {
    for (let i = 0; i < jobs; i++) {
      const worker = new Worker(workerEntry(import.meta.url), { eval: true, workerData: { tauInspectJudge: true } });
      const slot = { worker, out: 0, alive: true };
      worker.on('message', (a: FromJudge) => {
        const p = this.pending.get(a.id);
        this.pending.delete(a.id);
        slot.out--;
        p?.resolve('error' in a ? null : a);
      });
      // A worker that stops fails the batches it has (judged by the caller) and takes no more.
      worker.on('error', () => this.drop(slot));
      worker.on('exit', () => this.drop(slot));
      this.workers.push(slot);
    }
  }

  private drop(slot: { readonly worker: Worker; alive: boolean }): void {
    slot.alive = false;
    for (const [id, p] of this.pending)
      if (p.worker === slot.worker) {
        this.pending.delete(id);
        p.resolve(null);
      }
  }

  /** Batches from now on are judged on the session's data version and its work on it (nothing sent before it has one). */
  useData(session: InspectSession): void {
    const version = session.dataVersion;
    const snapshot = session.dataSnapshot();
    if (!version || !snapshot) return;
    const { db: _db, ...facts } = version;
    this.gen++;
    const m: ToJudge = { type: 'data', gen: this.gen, domain: session.domain, version: facts, snapshot };
    for (const w of this.workers) if (w.alive) w.worker.postMessage(m);
  }

  /** Workers that still take batches. */
  get size(): number {
    return this.workers.filter((w) => w.alive).length;
  }

  /** Batches out (sent, not answered). */
  get out(): number {
    return this.pending.size;
  }

  /** The lines of episodes `indices` (their bytes: `bytes`, episode k at `spans[2k]…spans[2k + 1]`; transferred). */
  judge(indices: readonly number[], bytes: Uint8Array, spans: readonly number[], rule: RewardRule, revised: readonly boolean[]): Promise<JudgedBatch | null> {
    const slot = this.workers.filter((w) => w.alive).sort((a, b) => a.out - b.out)[0];
    if (!slot || this.gen < 0) return Promise.resolve(null);
    const id = this.next++;
    slot.out++;
    return new Promise((resolve) => {
      this.pending.set(id, { worker: slot.worker, resolve });
      const m: ToJudge = { type: 'judge', id, gen: this.gen, rule, revised, indices, bytes, spans };
      slot.worker.postMessage(m, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

// This module (or the bundle holding it) started as a judge worker.
if (isJudgeWorker()) startJudgeWorker();
