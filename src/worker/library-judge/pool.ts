/**
 * Library judges: the evaluator worker judges a library folder's runs on as many workers as the machine has cores
 * (`navigator.hardwareConcurrency`, at most 8), each judging one run at a time (bounded memory: a run's text and its
 * domain's data per judge). Their questions about data are answered here from the evaluator's own sources.
 */
import { EvalCache, type BenchmarkKind, type Domain, type IndexRow, type ReadText } from '../../core/contract';
import type { Located } from '../data-locator';
import type { TauBenchData } from '../tau-bench-data';
import type { Tau2Data } from '../tau2/data';
import type { DataKind, FromLibraryJudge, SharedData, SharedDataOf, ToLibraryJudge, Unit } from './wire';

/** A domain's data as the judges share it: what one loaded, or who is loading it (a judge, or the evaluator handing its own on) and who waits. */
interface Shared {
  data: SharedData | null;
  owner: Judge | 'evaluator' | null;
  readonly waiting: ((data: SharedData | null) => void)[];
}

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
  /**
   * Each domain's data located once for every judge (by `<kind>|<domain>`): its files fetched once, and read with that
   * domain's reader (a source's reader knows the files of the domain it was located for).
   */
  private readonly locating = new Map<string, Promise<Located | null>>();
  /** By `<kind>|<source key>|<domain>`. */
  private readonly shared = new Map<string, Shared>();
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
    // Data it was loading will not come: those waiting for it load it themselves.
    for (const [k, s] of this.shared) if (s.owner === judge) this.handOn(k, s, null);
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
        return send({ type: 'located', rid: m.rid, found: loc && { key: loc.key, label: loc.label, origin: loc.origin } });
      }
      case 'ask-shared': {
        const k = `${m.kind}|${m.key}|${m.domain}`;
        const s = this.shared.get(k);
        if (s === undefined) {
          // Data the evaluator keeps (a run of the page used it) is handed on: its source then reads nothing more.
          const own = this.layouts[m.kind].own(m.key, m.domain);
          if (own !== null) {
            const mine: Shared = { data: null, owner: 'evaluator', waiting: [(data) => send({ type: 'shared', rid: m.rid, data })] };
            this.shared.set(k, mine);
            own.then(
              (data) => this.handOn(k, mine, data),
              () => this.handOn(k, mine, null),
            );
            return;
          }
          // Else the first to ask loads it.
          this.shared.set(k, { data: null, owner: judge, waiting: [] });
          return send({ type: 'shared', rid: m.rid, data: null });
        }
        if (s.owner === null) return send({ type: 'shared', rid: m.rid, data: s.data });
        s.waiting.push((data) => send({ type: 'shared', rid: m.rid, data }));
        return;
      }
      case 'share': {
        const k = `${m.kind}|${m.key}|${m.domain}`;
        const s = this.shared.get(k);
        if (s?.owner === judge) this.handOn(k, s, m.data);
        return;
      }
      case 'work': {
        // Only τ-bench's versions carry reference-replay hashes.
        const s = this.shared.get(`tau-bench|${m.key}|${m.domain}`);
        const data = s?.data as SharedDataOf['tau-bench'] | null | undefined;
        if (!s || !data) return;
        s.data = {
          versions: data.versions.map((v) => {
            if (v.facts.commit !== m.commit) return v;
            const gtHashes = new Map(v.snapshot.work.gtHashes);
            for (const [key, hash] of m.gtHashes) if (!gtHashes.has(key)) gtHashes.set(key, hash);
            return { facts: v.facts, snapshot: { ...v.snapshot, work: { ...v.snapshot.work, gtHashes } } };
          }),
          texts: data.texts,
        };
        return;
      }
      case 'read': {
        const loc = await this.locate(m.kind, m.domain).catch(() => null);
        const read = loc?.key === m.key ? this.layouts[m.kind].reader(loc) : null;
        try {
          return send({ type: 'text', rid: m.rid, text: read ? await read(m.path) : null, error: null });
        } catch (e) {
          return send({ type: 'text', rid: m.rid, text: null, error: e instanceof Error ? e.message : String(e) });
        }
      }
    }
  }

  /** A domain's data loaded (or not: null) by its owner, given to those waiting and to every later asker; none: the next asker loads it. */
  private handOn(k: string, s: Shared, data: SharedData | null): void {
    if (data === null) this.shared.delete(k);
    else {
      s.data = data;
      s.owner = null;
    }
    for (const w of s.waiting.splice(0)) w(data);
  }

  /**
   * Each benchmark's data as the evaluator finds it (quietly: no run of the page asks) and reads it, and the data it
   * keeps loaded itself, as the judges share it (null: none kept; its source is then not read again, see `DataLocator`).
   */
  private readonly layouts: Record<
    DataKind,
    { locate(domain: string): Promise<Located | null>; reader(loc: Located): ReadText; own(key: string, domain: string): Promise<SharedData> | null }
  > = {
    'tau-bench': {
      locate: (domain) => this.data.locate(...quiet(domain)),
      reader: (loc) => loc.read,
      own: (key, domain) =>
        this.data.keptVersions(key, domain)?.then((vs): SharedDataOf['tau-bench'] => ({
          versions: vs.map(({ db, ...facts }) => ({ facts, snapshot: { domain: domain as Domain, db, work: new EvalCache().snapshot(db) } })),
          texts: [],
        })) ?? null,
    },
    tau2: {
      locate: (domain) => this.tau2.locate(...quiet(domain)),
      reader: (loc) => this.tau2.reader(loc),
      own: (key, domain) => this.tau2.keptSnapshot(key, domain)?.then((snapshot): SharedDataOf['tau2'] => ({ snapshot })) ?? null,
    },
  };

  private locate(kind: DataKind, domain: string): Promise<Located | null> {
    const k = `${kind}|${domain}`;
    let hit = this.locating.get(k);
    if (!hit) {
      this.locating.set(k, (hit = this.layouts[kind].locate(domain)));
      // Not found (or failed): the next judge that asks looks again.
      void hit.then(
        (loc) => loc === null && this.locating.delete(k),
        () => this.locating.delete(k),
      );
    }
    return hit;
  }

  /** Starts locating a domain's data the folder's runs will likely ask for (a judge that asks meanwhile waits for the same search). */
  prepare(kind: DataKind, domain: string): void {
    void this.locate(kind, domain).catch(() => null);
  }

  /** Whether some judge is left. */
  get working(): boolean {
    return this.judges.some((j) => j.alive);
  }

  /**
   * Judges `unit` on judge `slot` when it is there and idle, else on an idle judge (the caller hands out at most as
   * many runs at once as there are judges).
   */
  judge(unit: Unit, slot = -1): Promise<JudgedUnit> {
    const idle = (j: Judge | undefined): j is Judge => j !== undefined && j.alive && j.job === null;
    const own = this.judges[slot];
    const judge = idle(own) ? own : this.judges.find(idle);
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

  /**
   * Ends judge `slot` once no run is left for it (when idle): its worker's heap goes at once, and the full collection
   * that ends a worker runs while the others still judge, not after the last run beside the library's first view.
   */
  retire(slot: number): void {
    const judge = this.judges[slot];
    if (judge?.alive && judge.job === null) this.drop(judge);
  }

  close(): void {
    for (const j of this.judges) this.drop(j);
    this.shared.clear();
  }
}
