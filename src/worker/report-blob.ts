import type { EpisodeSummary } from '../core/contract';
import { post, yieldToMessages } from './post';

/** Work on a report between two looks at the message queue. */
export const REPORT_SLICE_MS = 25;
/** Report text gathered before it becomes one part of the report's Blob. */
const REPORT_PART_CHARS = 1 << 20;

/** Lets other messages in every `REPORT_SLICE_MS` of work; true when it did (then whatever was waited for may have changed). */
export function reportPauser(yieldToMessages: () => Promise<void>): () => Promise<boolean> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < REPORT_SLICE_MS) return false;
    await yieldToMessages();
    last = performance.now();
    return true;
  };
}

/**
 * A report's parts gathered into a Blob a megabyte at a time (the report is never one string in this
 * process), pausing for other messages as it goes; null when `gone` says the run was closed meanwhile.
 */
export async function reportBlob(parts: Iterable<string>, pause: () => Promise<boolean>, gone: () => boolean): Promise<Blob | null> {
  const blobs: Blob[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  for (const part of parts) {
    pending.push(part);
    pendingChars += part.length;
    if (pendingChars >= REPORT_PART_CHARS) {
      blobs.push(new Blob(pending));
      pending = [];
      pendingChars = 0;
    }
    if ((await pause()) && gone()) return null;
  }
  return new Blob([...blobs, ...pending], { type: 'text/html' });
}

/** Why a report was not built: the run asked for is not open. */
export const NOT_OPEN = 'that run is no longer open';

/** A run as its report needs it: rows judged on the way (their summaries go to the page), then the report's parts. */
export interface ReportSource {
  readonly total: number;
  isEvaluated(i: number): boolean;
  evaluate(i: number): EpisodeSummary;
  /** Rows judged so far. */
  evaluated(): number;
  /** The run was closed meanwhile. */
  gone(): boolean;
  /** Once every row is judged (a τ-bench run settles its rule). */
  settled?(): void;
  /** Every row's fingerprint computed (the notes are matched by them); settles once they are. */
  keyed?(): Promise<void>;
  parts(): Iterable<string>;
}

/** A run's rows as its scheduler judges them (every benchmark's runs are judged by one `Scheduler`), with the rest of its report. */
export function scheduledReport(
  s: { readonly total: number; readonly count: number; isEvaluated(i: number): boolean; evaluate(i: number): EpisodeSummary },
  rest: Pick<ReportSource, 'gone' | 'settled' | 'keyed' | 'parts'>,
): ReportSource {
  return { total: s.total, isEvaluated: (i) => s.isEvaluated(i), evaluate: (i) => s.evaluate(i), evaluated: () => s.count, ...rest };
}

/**
 * Builds and posts a run's offline report (`report`): every row judged first — pausing every few
 * milliseconds for other messages, its summaries sent on the way — then the parts gathered into a Blob.
 * `r`: the run, or why it has no report (closed, no data yet).
 */
export async function postReport(run: number, id: number, r: ReportSource | string): Promise<void> {
  if (typeof r === 'string') return post({ type: 'report', run, id, file: null, error: r });
  const { total } = r;
  const closed = (): void => post({ type: 'report', run, id, file: null, error: 'the run was closed while its report was built' });
  const pause = reportPauser(yieldToMessages);
  const send = (summaries: EpisodeSummary[]): void => post({ type: 'summaries', run, summaries, evaluated: r.evaluated(), total, replace: false });
  try {
    let fresh: EpisodeSummary[] = [];
    for (let i = 0; i < total; i++) {
      if (!r.isEvaluated(i)) fresh.push(r.evaluate(i));
      if (fresh.length > 0 && (await pause())) {
        if (r.gone()) return closed();
        send(fresh);
        fresh = [];
      }
    }
    if (fresh.length > 0) send(fresh);
    r.settled?.();
    await r.keyed?.();
    if (r.gone()) return closed();
    const file = await reportBlob(r.parts(), pause, () => r.gone());
    if (file === null) return closed();
    post({ type: 'report', run, id, file, error: null });
  } catch (e) {
    post({ type: 'report', run, id, file: null, error: e instanceof Error ? e.message : String(e) });
  }
}
