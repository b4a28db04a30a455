/**
 * Which index worker takes which file. A worker keeps the data it loaded (each benchmark's domain: τ-bench's data
 * versions and reference replays, τ²'s DBs), so files that need the same data are best judged by the same worker:
 * files are grouped by the data they need (`dataGroup`, guessed from the file's first bytes; a wrong guess costs time,
 * never a row), the groups dealt out biggest first to the worker with the fewest bytes so far, and each worker takes
 * its own files group by group (biggest group first, each group's files biggest first), so that once a group is done
 * its data can go (`finished`). A worker whose files are done takes the biggest file left to another — one of a group
 * it has loaded first; one of another group only when the other worker's files left outweigh loading that data and
 * judging the file (`loadBytes`): a worker loading a domain's data for the last small file of another's is later
 * than the other. The load is balanced by bytes — the episodes' estimate —, not by files.
 */
import { open } from 'node:fs/promises';

/** Tool names each τ-bench domain's files show early (a reference action or a call in the first episode). */
const TAU_BENCH_TOOLS: readonly (readonly [string, RegExp])[] = [
  [
    'airline',
    /"(book_reservation|search_direct_flight|search_onestop_flight|update_reservation_flights|update_reservation_passengers|get_reservation_details|cancel_reservation)"/g,
  ],
  [
    'retail',
    /"(find_user_id_by_email|find_user_id_by_name_zip|get_order_details|exchange_delivered_order_items|return_delivered_order_items|cancel_pending_order|modify_pending_order_items)"/g,
  ],
];

const HEAD_BYTES = 64 * 1024;

/** The data a file needs, guessed from its first 64 KB: `tau2:<domain>`, `tau-bench:<domain>`, or `other`. */
export async function dataGroup(path: string, kind: string): Promise<string> {
  if (kind !== 'file') return kind;
  let head = '';
  try {
    const f = await open(path, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await f.read(buf, 0, HEAD_BYTES, 0);
      head = buf.toString('utf8', 0, bytesRead);
    } finally {
      await f.close();
    }
  } catch {
    return 'other';
  }
  const tau2 = /"domain_name"\s*:\s*"([^"\\]{1,64})"/.exec(head);
  if (tau2) return `tau2:${tau2[1]}`;
  let best = 'other';
  let most = 0;
  for (const [domain, re] of TAU_BENCH_TOOLS) {
    const n = head.match(re)?.length ?? 0;
    if (n > most) [best, most] = [`tau-bench:${domain}`, n];
  }
  return best;
}

export interface PlannedJob {
  readonly bytes: number;
  readonly group: string;
}

const MB = 2 ** 20;

/**
 * What loading a group's data costs a worker, in bytes of files judged (the plan's unit), as measured on the shared runs
 * (2 jobs, load 8): τ-bench's versions parsed and every task's reference actions replayed and hashed on each (a
 * 50-episode airline file took a worker without airline's data 0.95–1.34 s, one with it 0.2–0.4 s; τ-bench files judge
 * at ~0.3–0.6 ms of CPU a KB: ~4 MB); τ²'s DBs read from the DB cache and the first simulations' hashes (~0.5 s, at
 * ~0.2–0.35 ms a KB: ~2 MB).
 */
export function loadBytes(group: string): number {
  return group.startsWith('tau-bench:') ? 4 * MB : 2 * MB;
}

export class IndexPlan<T extends PlannedJob> {
  private readonly queues: T[][];
  /** The groups each worker has taken a file of (its data loaded), until `finished` lets them go. */
  private readonly loaded: Set<string>[];

  constructor(
    jobs: readonly T[],
    workers: number,
    private readonly loadCost: (group: string) => number = loadBytes,
  ) {
    const groups = new Map<string, T[]>();
    for (const j of jobs) {
      const g = groups.get(j.group);
      if (g === undefined) groups.set(j.group, [j]);
      else g.push(j);
    }
    const total = (xs: readonly T[]): number => xs.reduce((n, j) => n + j.bytes, 0);
    this.queues = Array.from({ length: workers }, () => []);
    this.loaded = Array.from({ length: workers }, () => new Set());
    const load = new Array<number>(workers).fill(0);
    for (const g of [...groups.values()].sort((a, b) => total(b) - total(a))) {
      const w = load.indexOf(Math.min(...load));
      this.queues[w]!.push(...g.sort((a, b) => b.bytes - a.bytes));
      load[w]! += total(g);
    }
  }

  /** The next file for worker `w`, or null when none is left that it should take. */
  next(w: number): T | null {
    let job = this.queues[w]!.shift();
    if (job === undefined) job = this.steal(w);
    if (job === undefined) return null;
    this.loaded[w]!.add(job.group);
    return job;
  }

  /** The groups worker `w` has loaded that no file left needs (its last job's excepted): their data can go. */
  finished(w: number, current: string): string[] {
    const left = new Set(this.queues.flatMap((q) => q.map((j) => j.group)));
    const done = [...this.loaded[w]!].filter((g) => g !== current && !left.has(g));
    for (const g of done) this.loaded[w]!.delete(g);
    return done;
  }

  /**
   * From the worker with the most bytes left: its biggest file of a group `w` has loaded, else its biggest unless `w`
   * loading that file's data and judging it outweighs the bytes that worker has left.
   */
  private steal(w: number): T | undefined {
    let from = -1;
    let most = 0;
    this.queues.forEach((q, i) => {
      const left = q.reduce((n, j) => n + j.bytes, 0);
      if (i !== w && q.length > 0 && (from < 0 || left > most)) [from, most] = [i, left];
    });
    if (from < 0) return undefined;
    const q = this.queues[from]!;
    let at = -1;
    q.forEach((j, i) => {
      if (this.loaded[w]!.has(j.group) && (at < 0 || j.bytes > q[at]!.bytes)) at = i;
    });
    if (at < 0) {
      q.forEach((j, i) => {
        if (at < 0 || j.bytes > q[at]!.bytes) at = i;
      });
      // The other worker's job in hand is not counted (its part left is not known): a worker may wait when taking would do.
      if (this.loadCost(q[at]!.group) + q[at]!.bytes > most) return undefined;
    }
    return q.splice(at, 1)[0];
  }
}
