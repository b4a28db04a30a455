import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { hashableStr } from './hashable';
import type { PyValue } from './value';

/** sha256 hex of the UTF-8 of a string. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

// Python parity: tau_bench.envs.base.consistent_hash(to_hashable(v)).
export function consistentHash(v: PyValue): string {
  return sha256Hex(hashableStr(v));
}
