import { hashableStr } from './hashable';
import { sha256Stream } from './sha256';
import type { PyValue } from './value';

/** sha256 hex of the UTF-8 of a string. */
export function sha256Hex(text: string): string {
  const s = sha256Stream();
  s.update(text);
  return s.hex();
}

// Python parity: tau_bench.envs.base.consistent_hash(to_hashable(v)).
export function consistentHash(v: PyValue): string {
  return sha256Hex(hashableStr(v));
}
