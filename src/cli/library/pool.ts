/**
 * Worker threads for `tau-inspect index`. A worker is this very module (or the bundle it is part of)
 * started again with `workerData.tauInspectIndex`: `startIndexWorker` answers there, and the CLI's
 * entry does not run `main` in a worker.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { IndexContext, type DataRoots } from './index-file';
import type { FoundRun } from './walk';
import type { IndexRow } from '../../core/contract';
import { workerEntry } from '../worker-entry';

interface Job {
  readonly id: number;
  readonly run: FoundRun;
  readonly hash: string;
  /** The plan's guess of the data the file needs (`dataGroup`), under which the worker keeps what it loads. */
  readonly group: string;
  /** Groups whose data the worker may let go first: no file left needs it (`IndexPlan.finished`). */
  readonly forget: readonly string[];
}
type Answer = { readonly id: number; readonly rows: IndexRow[] } | { readonly id: number; readonly error: string };

/** Whether this thread is an index worker (the CLI's entry then leaves `main` alone). */
export const isIndexWorker = (): boolean => !isMainThread && (workerData as { tauInspectIndex?: DataRoots } | null)?.tauInspectIndex !== undefined;

/** In an index worker: evaluates each job it is sent, one at a time, and answers with its rows or the reason it has none. */
export function startIndexWorker(): void {
  const context = new IndexContext((workerData as { tauInspectIndex: DataRoots }).tauInspectIndex);
  let queue = Promise.resolve();
  parentPort!.on('message', (job: Job) => {
    queue = queue.then(async () => {
      let answer: Answer;
      try {
        context.forget(job.forget);
        answer = { id: job.id, rows: await context.rows(job.run, job.hash, job.group) };
      } catch (e) {
        answer = { id: job.id, error: e instanceof Error ? e.message : String(e) };
      }
      parentPort!.postMessage(answer);
    });
  });
}

/** The outcome of one job, as the pool hands it back. */
export type JobOutcome = { readonly rows: IndexRow[] } | { readonly error: string };

/**
 * `jobs` worker threads, each running this module (or the bundle): `run` hands a file to the next
 * free worker. `close` ends them.
 */
export class IndexPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly pending = new Map<number, { worker: Worker; resolve: (o: JobOutcome) => void }>();
  private readonly workers = new Set<Worker>();
  /** The workers by place (`runOn`): a worker that dies is replaced at its place. */
  private readonly slots: Worker[] = [];
  private closed = false;
  private deaths = 0;
  private failure: Error | null = null;
  private next = 0;

  constructor(
    jobs: number,
    private readonly data: DataRoots,
  ) {
    for (let i = 0; i < jobs; i++) {
      const w = this.spawn();
      this.slots.push(w);
      this.release(w);
    }
  }

  private spawn(): Worker {
    const w = new Worker(workerEntry(import.meta.url), { eval: true, workerData: { tauInspectIndex: this.data } });
    w.on('message', (a: Answer) => {
      const p = this.pending.get(a.id);
      this.pending.delete(a.id);
      this.release(w);
      p?.resolve('rows' in a ? { rows: a.rows } : { error: a.error });
    });
    // A worker that dies fails its own job and is replaced (the run goes on).
    w.on('error', (e: Error) => {
      this.workers.delete(w);
      for (const [id, p] of this.pending)
        if (p.worker === w) {
          this.pending.delete(id);
          p.resolve({ error: `worker stopped: ${e.message}` });
        }
      if (this.closed) return;
      if (++this.deaths > 2 * this.workers.size + 4) this.fail(new Error(`index workers keep stopping: ${e.message}`));
      else {
        const next = this.spawn();
        const at = this.slots.indexOf(w);
        if (at >= 0) this.slots[at] = next;
        this.release(next);
      }
    });
    this.workers.add(w);
    return w;
  }

  private release(w: Worker): void {
    this.idle.push(w);
    this.waiting.shift()?.();
  }

  /** Workers that cannot start (or keep dying): the run stops with the reason. */
  private fail(e: Error): void {
    this.failure = e;
    for (const w of this.waiting.splice(0)) w();
  }

  private async take(): Promise<Worker> {
    while (this.idle.length === 0 && this.failure === null) await new Promise<void>((r) => this.waiting.push(r));
    if (this.failure) throw this.failure;
    return this.idle.pop()!;
  }

  async run(run: FoundRun, hash: string): Promise<JobOutcome> {
    return this.post(await this.take(), { run, hash, group: '', forget: [] });
  }

  private post(w: Worker, job: Omit<Job, 'id'>): Promise<JobOutcome> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { worker: w, resolve });
      w.postMessage({ id, ...job } satisfies Job);
    });
  }

  /**
   * Runs a job on the worker at place `slot` (0 ≤ slot < jobs), which keeps the data it loaded for earlier files: the
   * caller runs one job at a time per place (see `IndexPlan`). `group`: the plan's guess of the data the file needs;
   * `forget`: groups whose data no file left needs.
   */
  async runOn(slot: number, run: FoundRun, hash: string, group = '', forget: readonly string[] = []): Promise<JobOutcome> {
    if (this.failure) throw this.failure;
    const w = this.slots[slot]!;
    const at = this.idle.indexOf(w);
    if (at >= 0) this.idle.splice(at, 1);
    return this.post(w, { run, hash, group, forget });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.workers].map((w) => w.terminate()));
  }
}

// This module (or the bundle holding it) started as an index worker.
if (isIndexWorker()) startIndexWorker();
