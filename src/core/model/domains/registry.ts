import type { Domain } from '../data/db';
import { AIRLINE_TOOLS } from './airline/tools';
import { RETAIL_TOOLS } from './retail/tools';
import type { ToolDef } from './tool';

const byName = (tools: readonly ToolDef[]): ReadonlyMap<string, ToolDef> => new Map(tools.map((t) => [t.name, t]));

/** `Env.tools_map` of each domain. */
export const TOOLS: Readonly<Record<Domain, ReadonlyMap<string, ToolDef>>> = {
  retail: byName(RETAIL_TOOLS),
  airline: byName(AIRLINE_TOOLS),
};

/** Tool names that exist in one domain only (used to detect a results file's domain). */
export function domainOnlyTools(domain: Domain): Set<string> {
  const other = domain === 'retail' ? TOOLS.airline : TOOLS.retail;
  return new Set([...TOOLS[domain].keys()].filter((n) => !other.has(n)));
}

/** A domain's tools as the what-if insert form needs them: name, declared parameters, whether it writes. */
export function toolCatalog(domain: Domain): { readonly name: string; readonly params: readonly string[]; readonly writes: boolean }[] {
  return [...TOOLS[domain].values()].map((t) => ({ name: t.name, params: t.params, writes: t.writes }));
}
