import { afterAll, beforeAll } from 'vitest';
import type { BenchmarkView, Detection, EpisodeHeader, EpisodeSummary } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import type { SharedContext } from '../../src/protocol/share-context';
import type { DataOrigin, Tau2Opened } from '../../src/protocol/wire-types';

/** Messages as the worker sends them, for store specs (`store.getState().receive(...)`). */
export const says = {
  opened: (run: number, label: string, headers: readonly EpisodeHeader[], shared?: SharedContext): FromWorker<'run-opened'> => ({
    type: 'run-opened',
    run,
    label,
    benchmark: { kind: 'tau-bench', domain: 'retail' },
    domainWhy: 'why',
    headers,
    ...(shared && { shared }),
  }),
  /** A τ² run opened (its facts as `Tau2Opened`). */
  tau2Opened: (run: number, label: string, headers: readonly EpisodeHeader[], tau2: Tau2Opened, shared?: SharedContext): FromWorker<'run-opened'> => ({
    type: 'run-opened',
    run,
    label,
    benchmark: { kind: 'tau2', ...tau2 },
    domainWhy: 'why',
    headers,
    ...(shared && { shared }),
  }),
  /** A τ² run's data is there. */
  tau2Ready: (run: number, why = 'sample'): FromWorker<'data-ready'> => ({
    type: 'data-ready',
    run,
    origin: { kind: 'sample', label: 'sample' },
    why,
    detection: null,
    reset: true,
  }),
  failed: (run: number, label: string, message: string): FromWorker<'run-error'> => ({ type: 'run-error', run, label, message }),
  progress: (run: number, loaded: number, total: number | null): FromWorker<'run-progress'> => ({ type: 'run-progress', run, loaded, total }),
  detected: (run: number, detection: Detection, origin: DataOrigin, reset: boolean): FromWorker<'data-ready'> => ({
    type: 'data-ready',
    run,
    detection,
    origin,
    why: detection.versionWhy,
    reset,
  }),
  summaries: (run: number, summaries: readonly EpisodeSummary[], evaluated: number, replace = false): FromWorker<'summaries'> => ({
    type: 'summaries',
    run,
    summaries,
    evaluated,
    total: evaluated,
    replace,
  }),
  view: (run: number, episode: number, view: BenchmarkView | null, error: string | null = null): FromWorker<'view'> =>
    view === null ? { type: 'view', run, episode, view: null, error: error ?? 'no view' } : { type: 'view', run, episode, view, error: null },
  samples: (samples: readonly string[]): FromWorker<'init'> => ({ type: 'init', samples }),
};

/**
 * What the worker posts, captured for the specs of one file: `self.postMessage` (the worker's `post`) is replaced
 * before its tests and put back after them. Each message is copied as it is posted, as postMessage does: the worker
 * goes on with its own objects.
 */
export function capturePosts(): FromWorker[] {
  const posted: FromWorker[] = [];
  const holder = globalThis as { self?: unknown };
  const hadSelf = 'self' in holder;
  const before = holder.self;
  beforeAll(() => {
    holder.self = { postMessage: (m: FromWorker) => void posted.push(structuredClone(m)) };
  });
  afterAll(() => {
    if (hadSelf) holder.self = before;
    else delete holder.self;
  });
  return posted;
}

/** The messages of one type among `ms`, in order. */
export const postsOf = <K extends FromWorker['type']>(ms: readonly FromWorker[], type: K): FromWorker<K>[] =>
  ms.filter((m) => m.type === type) as unknown as FromWorker<K>[];

/** One turn of the event loop (a worker's posted work, yielded with timers, goes on meanwhile). */
export const tick = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));
