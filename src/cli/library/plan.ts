/**
 * Which index worker takes which file. A worker keeps the data it loaded (each benchmark's domain: τ-bench's data
 * versions and reference replays, τ²'s DBs), so files that need the same data are best judged by the same worker:
 * files are grouped by the data they need (`dataGroup`, guessed from the file's first bytes; a wrong guess costs time,
 * never a row), the groups dealt out biggest first to the worker with the fewest bytes so far, and each worker takes
 * its own files biggest first. A worker whose files are done takes the biggest file left to another (one of a group it
 * has loaded first), so none waits while another still has several: the load is balanced by bytes — the episodes'
 * estimate — not by files.
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

export class IndexPlan<T extends PlannedJob> {
  private readonly queues: T[][];
  /** The groups each worker has taken a file of (its data loaded). */
  private readonly loaded: Set<string>[];

  constructor(jobs: readonly T[], workers: number) {
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
      this.queues[w]!.push(...g);
      load[w]! += total(g);
    }
    for (const q of this.queues) q.sort((a, b) => b.bytes - a.bytes);
  }

  /** The next file for worker `w`, or null when none is left anywhere. */
  next(w: number): T | null {
    let job = this.queues[w]!.shift();
    if (job === undefined) job = this.steal(w);
    if (job === undefined) return null;
    this.loaded[w]!.add(job.group);
    return job;
  }

  /** From the worker with the most bytes left: its biggest file of a group `w` has loaded, else its biggest. */
  private steal(w: number): T | undefined {
    let from = -1;
    let most = 0;
    this.queues.forEach((q, i) => {
      const left = q.reduce((n, j) => n + j.bytes, 0);
      if (i !== w && q.length > 0 && (from < 0 || left > most)) [from, most] = [i, left];
    });
    if (from < 0) return undefined;
    const q = this.queues[from]!;
    const known = q.findIndex((j) => this.loaded[w]!.has(j.group));
    return q.splice(known >= 0 ? known : 0, 1)[0];
  }
}
