import type { RunBenchmark, Tau2Opened } from '../../protocol/wire-types';
import type { RunState } from '../run-state';

/** A τ² run's facts as the file gave them (null for a run of another benchmark): for τ²'s own screen parts. */
export const tau2Of = (r: RunState): Tau2Opened | null => (r.benchmark?.kind === 'tau2' ? r.benchmark : null);

/** What the overview says under a τ² run's count: its domain, and whether it ran solo. */
export const tau2RunNote = (b: RunBenchmark | null): string | undefined => (b?.kind === 'tau2' ? `τ² ${b.domain}${b.solo ? ', solo' : ''}` : undefined);
