import type { TDict, TValue } from '../../py/pydantic';
import { PydModel } from '../../py/pydantic';
import type { Tau2Action } from '../../model/episode/tau2/types';

// Python parity: == between JSON values (1 == 1.0 == True, dict equality ignores order).
export function pyEqual(a: TValue, b: TValue): boolean {
  if (a === b) return true;
  const num = (x: TValue): number | bigint | null => (typeof x === 'boolean' ? (x ? 1n : 0n) : typeof x === 'bigint' || typeof x === 'number' ? x : null);
  const na = num(a);
  const nb = num(b);
  if (na !== null && nb !== null) {
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    const fa = typeof na === 'bigint' ? na : na;
    const fb = typeof nb === 'bigint' ? nb : nb;
    if (typeof fa === 'number' && typeof fb === 'number') return fa === fb;
    const f = (typeof fa === 'number' ? fa : fb) as number;
    const i = (typeof fa === 'bigint' ? fa : fb) as bigint;
    return Number.isInteger(f) && BigInt(f) === i;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEqual(x, b[i]!));
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, x]) => b.has(k) && pyEqual(x, b.get(k)!));
  if (a instanceof PydModel || b instanceof PydModel) return false;
  return false;
}

// Python parity: Action.compare_with_tool_call (names equal, then the compared arguments as dicts).
export function argsEqual(action: Tau2Action, callArgs: TDict): boolean {
  const keys = action.compareArgs ?? [...callArgs.keys()];
  if (keys.length === 0) return true;
  const pick = (d: TDict): TDict => new Map([...d].filter(([k]) => keys.includes(k)));
  return pyEqual(pick(callArgs), pick(action.arguments));
}
