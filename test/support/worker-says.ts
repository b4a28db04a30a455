import type { Detection, EpisodeHeader, EpisodeSummary, EpisodeView } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import type { SharedContext } from '../../src/protocol/share-context';
import type { DataOrigin } from '../../src/protocol/wire-types';

/** Messages as the worker sends them, for store specs (`store.getState().receive(...)`). */
export const says = {
  opened: (run: number, label: string, headers: readonly EpisodeHeader[], shared?: SharedContext): FromWorker<'run-opened'> => ({
    type: 'run-opened',
    run,
    label,
    domain: 'retail',
    domainWhy: 'why',
    headers,
    ...(shared && { shared }),
  }),
  failed: (run: number, label: string, message: string): FromWorker<'run-error'> => ({ type: 'run-error', run, label, message }),
  progress: (run: number, loaded: number, total: number | null): FromWorker<'run-progress'> => ({ type: 'run-progress', run, loaded, total }),
  detected: (run: number, detection: Detection, origin: DataOrigin, reset: boolean): FromWorker<'detection'> => ({
    type: 'detection',
    run,
    detection,
    origin,
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
  view: (run: number, episode: number, view: EpisodeView | null, error: string | null = null): FromWorker<'view'> =>
    view === null ? { type: 'view', run, episode, view: null, error: error ?? 'no view' } : { type: 'view', run, episode, view, error: null },
  samples: (samples: readonly string[]): FromWorker<'init'> => ({ type: 'init', samples }),
};
