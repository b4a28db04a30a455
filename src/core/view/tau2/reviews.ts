/**
 * The reviews a τ² simulation recorded (an LLM's review of the conversation, the authentication
 * classification, the hallucination check), as plain data for the screen: shown as recorded, never
 * recomputed (they were judged by an LLM when the run was made).
 */
import { EnumMember, PydModel, modelDump, pyJsonDumps, type TValue } from '../../py/pydantic';
import type { Tau2Simulation } from '../../model/episode/tau2/types';

/** A recorded value: text for a scalar (as Python prints it in JSON), a list, or a dict's entries in file order. */
export type Tau2Recorded =
  | { readonly kind: 'scalar'; readonly text: string; readonly type: 'str' | 'number' | 'bool' | 'null' }
  | { readonly kind: 'list'; readonly items: readonly Tau2Recorded[] }
  | { readonly kind: 'dict'; readonly entries: readonly (readonly [string, Tau2Recorded])[] };

export interface Tau2ReviewView {
  /** The field of τ²'s `Simulation` (`review`, `auth_classification`, `hallucination_check`, …). */
  readonly field: string;
  readonly value: Tau2Recorded;
}

function plain(v: TValue): Tau2Recorded {
  if (v instanceof PydModel) return plain(modelDump(v));
  if (v instanceof EnumMember) return plain(v.value as TValue);
  if (typeof v === 'string') return { kind: 'scalar', text: v, type: 'str' };
  if (v === null) return { kind: 'scalar', text: 'null', type: 'null' };
  if (typeof v === 'boolean') return { kind: 'scalar', text: v ? 'true' : 'false', type: 'bool' };
  if (typeof v === 'number' || typeof v === 'bigint') return { kind: 'scalar', text: pyJsonDumps(v), type: 'number' };
  if (Array.isArray(v)) return { kind: 'list', items: v.map(plain) };
  if (v instanceof Map) return { kind: 'dict', entries: [...v].map(([k, x]) => [String(k), plain(x)] as const) };
  return { kind: 'scalar', text: pyJsonDumps(v), type: 'str' };
}

export function tau2Reviews(sim: Tau2Simulation): Tau2ReviewView[] {
  return sim.reviews.map(([field, v]) => ({ field, value: plain(v) }));
}
