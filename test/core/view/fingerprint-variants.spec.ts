/**
 * Held-back variants of issue #35 class 4 (fingerprints that keep JSON's types), beyond fingerprint-types.spec.ts:
 * values Python's json.loads reads as two different values (bool vs int, text vs number, null vs text, a list vs an
 * object, composed vs decomposed text) are two episodes and two simulations — a note written on one never shows on
 * the other — while two spellings of one Python value (-0 and 0, 1E5 and 100000.0, 1.50 and 1.5, escaped and plain
 * text, keys in another order) are one.
 * Not held here: an int and an integer-valued float (1 and 1.0, 0 and -0.0) still share a fingerprint by design (a
 * copy re-written by a JSON tool keeps its notes), though Python's str and json.dumps write them apart.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyValue } from '../../../src/core/py/value';
import { episodeFingerprint, tau2SimulationFingerprint, textFingerprint } from '../../../src/core/view/fingerprint';

const episodeText = (amount: string): string =>
  `{"info": {"task": {"user_id": "u1", "actions": []}}, "traj": [{"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "refund", "arguments": {"amount": ${amount}}}}]}]}`;
const simText = (amount: string): string =>
  `{"id": "s1", "task_id": "t1", "trial": 0, "messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "pay", "arguments": {"amount": ${amount}}, "requestor": "assistant"}]}]}`;
const fp = (amount: string): string => episodeFingerprint({ raw: parseJson(episodeText(amount)) });
const fp2 = (amount: string): string => tau2SimulationFingerprint(null, parseJson(simText(amount)) as PyValue);

/** Two JSON values Python reads as different values (json.dumps writes them differently; a DB written with them hashes differently). */
const DIFFERENT: [string, string][] = [
  ['1', 'true'],
  ['0', 'false'],
  ['1', '"1"'],
  ['null', '"None"'],
  ['[]', '{}'],
  ['[1, 2]', '[2, 1]'],
  ['"\\u00e9"', '"e\\u0301"'],
];

/** Two spellings of one Python value. */
const SAME: [string, string][] = [
  ['-0', '0'],
  ['1E5', '100000.0'],
  ['1.50', '1.5'],
  ['"\\u0041"', '"A"'],
  ['1e-7', '0.0000001'],
  ['9007199254740993', '9007199254740993'],
  // Key order is no part of any verdict (τ-bench's to_hashable and τ²'s json.dumps(sort_keys=True) sort keys).
  ['{"a": 1, "b": 2}', '{"b": 2, "a": 1}'],
];

describe('fingerprints: values Python tells apart are two', () => {
  it.each(DIFFERENT)('%s and %s (τ-bench episode and τ² simulation)', (a, b) => {
    expect(fp(a)).not.toBe(fp(b));
    expect(fp2(a)).not.toBe(fp2(b));
  });
});

describe('fingerprints: one Python value spelled two ways is one', () => {
  it.each(SAME)('%s and %s', (a, b) => {
    expect(fp(a)).toBe(fp(b));
    expect(fp2(a)).toBe(fp2(b));
    // The app keys rows from the file's text: the same as from the value.
    expect(textFingerprint(episodeText(a))).toBe(fp(a));
  });
});
