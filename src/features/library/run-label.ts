import { benchmarkNamed } from '../../core/contract';
import type { LibraryRun } from '../../protocol/wire-types';
import { safeLabel } from '../../ui/fold';

/** A run's short name: its file's (or run folder's) last path segment, made safe to show. */
export const runName = (r: LibraryRun): string => safeLabel(r.file.replace(/\\/g, '/').replace(/\/+$/, '').split('/').at(-1) ?? r.file, 80);

/** The benchmark and domain in a few words: `τ-bench airline`, `τ² telecom`. */
export const benchDomain = (benchmark: string, domain: string | null): string =>
  `${benchmarkNamed(benchmark)?.short ?? safeLabel(benchmark, 40)} ${safeLabel(domain ?? '(no domain)', 40)}`;
