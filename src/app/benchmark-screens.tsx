import type { BenchmarkKind } from '../core/contract';
import { Tau2SimPane } from '../features/tau2/sim-pane';
import type { TeachDescriptor } from '../features/teach/teach-screen';
import type { RunFacts } from '../features/shell/detection-line';
import { TAU_BENCH_FACTS } from '../features/shell/tau-bench-facts';
import { TAU2_FACTS } from '../features/shell/tau2/facts';
import { EpisodePane } from './episode-pane';
import { TAU2_PANELS } from './tau2/panels';
import { TAU2_TEACH } from './tau2/teach';
import { TAU_BENCH_TEACH } from './tau-bench-teach';

/**
 * Each benchmark's episode screen (the app's part of its descriptor, beside core's words in
 * core/view/benchmark.ts): the shell shows the one of the open run's benchmark, never asking which it is.
 */
export const SCREENS: Readonly<Record<BenchmarkKind, () => React.JSX.Element | null>> = {
  'tau-bench': EpisodePane,
  tau2: () => <Tau2SimPane panels={TAU2_PANELS} />,
};

/** Each benchmark's part of the run line (how its runs are judged, where the data came from). */
export const RUN_FACTS: Readonly<Record<BenchmarkKind, RunFacts>> = { 'tau-bench': TAU_BENCH_FACTS, tau2: TAU2_FACTS };

/**
 * Each benchmark's part of teaching mode (features/teach): its sheet of checks from its view, its dialogue without the
 * judge's marks, and how to bring a check's evidence into view (null: a benchmark without one).
 */
export const TEACH: Readonly<Record<BenchmarkKind, TeachDescriptor | null>> = { 'tau-bench': TAU_BENCH_TEACH, tau2: TAU2_TEACH };
