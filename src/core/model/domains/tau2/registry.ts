import { AIRLINE } from './airline';
import { BANKING } from './banking';
import { MOCK } from './mock';
import { RETAIL } from './retail';
import { TELECOM } from './telecom';
import type { Tau2Domain } from './toolkit';

/** The τ² domains this port judges (by `info.environment_info.domain_name`). */
// τ²'s registry names 'telecom-workflow' for the telecom environment with the workflow policy: same tools and data.
export const TAU2_DOMAINS: ReadonlyMap<string, Tau2Domain> = new Map([
  ...[AIRLINE, BANKING, MOCK, RETAIL, TELECOM].map((d) => [d.name, d] as const),
  ['telecom-workflow', TELECOM] as const,
]);

/** Domains τ² has that this port does not judge yet. */
export const TAU2_PENDING_DOMAINS: readonly string[] = [];
