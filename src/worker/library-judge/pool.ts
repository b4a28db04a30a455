/**
 * Library judges: the evaluator worker judges a library folder's runs on as many workers as the machine has cores
 * (`navigator.hardwareConcurrency`, at most 8), each judging one run at a time (bounded memory: a run's text and its
 * domain's data per judge). Their questions about data are answered here from the evaluator's own sources.
 */
import type { BenchmarkKind, IndexRow, ReadText } from '../../core/contract';
import type { Located } from '../data-locator';
import type { Unit } from '../library/folder-library';
import type { TauBenchData } from '../tau-bench-data';
import type { Tau2Data } from '../tau2/data';
import type { DataKind, FromLibraryJudge, ToLibraryJudge } from './wire';

const quiet = (domain: string) => [domain, false, () => () => undefined, () => undefined] as const;

/** How many library judges this machine gets (0: judge in the evaluator itself). */
export function libraryJudgeCount(runs: number): number {
  const cores = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency || 1;
  if (typeof Worker === 'undefined' || cores < 2 || runs < 2) return 0;
  return Math.min(cores, runs, 8);
}

/** A run judged: its rows, or why it has none; null when no judge could take it (the evaluator judges it). */
export type JudgedUnit = { readonly rows: IndexRow[] } | { readonly reason: string; readonly missing?: BenchmarkKind } | null;

interface Judge {
  readonly worker: Worker;
  alive: boolean;
  job: { readonly id: number; readonly resolve: (r: JudgedUnit) => void } | null;
}

export class LibraryJudges {
  private readonly judges: Judge[] = [];
  private readonly located = new Map<string, Located>();
  private next = 0;

  constructor(
    count: number,
    private readonly data: TauBenchData,
    private readonly tau2: Tau2Data,
    make: () => Worker = () => new Worker(new URL('./library-judge.worker.ts', import.meta.url), { type: 'module', name: 'library-judge' }),
  ) {
    for (let i = 0; i < count; i++) {
      let worker: Worker;
      try {
        worker = make();
      } catch {
        break;
      }
      const judge: Judge = { worker, alive: true, job: null };
      worker.onmessage = (ev: MessageEvent<FromLibraryJudge>) => void this.receive(judge, ev.data);
      // A judge that fails gives its run back to the evaluator and takes no more.
      worker.onerror = () => this.drop(judge);
      this.judges.push(judge);
    }
  }

  private drop(judge: Judge): void {
    judge.alive = false;
    judge.worker.terminate();
    judge.job?.resolve(null);
    judge.job = null;
  }

  private async receive(judge: Judge, m: FromLibraryJudge): Promise<void> {
    const send = (a: ToLibraryJudge): void => judge.worker.postMessage(a);
    switch (m.type) {
      case 'rows':
      case 'failed': {
        const job = judge.job;
        if (job?.id !== m.id) return;
        judge.job = null;
        job.resolve(m.type === 'rows' ? { rows: m.rows } : { reason: m.reason, ...(m.missing !== undefined && { missing: m.missing }) });
        return;
      }
      case 'locate': {
        const loc = await this.locate(m.kind, m.domain).catch(() => null);
        if (loc) this.located.set(`${m.kind}|${loc.key}`, loc);
        return send({ type: 'located', rid: m.rid, found: loc && { key: loc.key, label: loc.label, origin: loc.origin } });
      }
      case 'read': {
        const loc = this.located.get(`${m.kind}|${m.key}`);
        const read = loc ? this.layouts[m.kind].reader(loc) : null;
        try {
          return send({ type: 'text', rid: m.rid, text: read ? await read(m.path) : null, error: null });
        } catch (e) {
          return send({ type: 'text', rid: m.rid, text: null, error: e instanceof Error ? e.message : String(e) });
        }
      }
    }
  }

  /** Each benchmark's data as the evaluator finds it (quietly: no run of the page asks) and reads it. */
  private readonly layouts: Record<DataKind, { locate(domain: string): Promise<Located | null>; reader(loc: Located): ReadText }> = {
    'tau-bench': { locate: (domain) => this.data.locate(...quiet(domain)), reader: (loc) => loc.read },
    tau2: { locate: (domain) => this.tau2.locate(...quiet(domain)), reader: (loc) => this.tau2.reader(loc) },
  };

  private locate(kind: DataKind, domain: string): Promise<Located | null> {
    return this.layouts[kind].locate(domain);
  }

  /** Whether some judge is left. */
  get working(): boolean {
    return this.judges.some((j) => j.alive);
  }

  /** Judges `unit` on an idle judge (the caller hands out at most as many runs at once as there are judges). */
  judge(unit: Unit): Promise<JudgedUnit> {
    const judge = this.judges.find((j) => j.alive && j.job === null);
    if (!judge) return Promise.resolve(null);
    const id = this.next++;
    return new Promise((resolve) => {
      judge.job = { id, resolve };
      try {
        judge.worker.postMessage({ type: 'judge', id, unit } satisfies ToLibraryJudge);
      } catch {
        // A run whose files cannot be sent to a worker: judged by the evaluator.
        judge.job = null;
        resolve(null);
      }
    });
  }

  close(): void {
    for (const j of this.judges) this.drop(j);
  }
}
