/**
 * Held-back variants of issue #35 class 4 (fingerprints that keep JSON's types), beyond fingerprint-types.spec.ts:
 * values Python's json.loads reads as two different values (bool vs int, text vs number, null vs text, a list vs an
 * object, composed vs decomposed text, an int vs an integer-valued float) are two episodes and two simulations — a
 * note written on one never shows on the other — while two spellings of one Python value (-0 and 0, 1E5 and
 * 100000.0, 1.50 and 1.5, escaped and plain text, keys in another order) are one.
 * An int and an integer-valued float (1 and 1.0, 0 and -0.0, 1e16 and its digits) are two since fingerprint format 3:
 * τ-bench hashes `str(1)` and `str(1.0)` apart, τ²'s json.dumps writes `1` and `1.0`, an airline amount is stored as
 * passed. Notes kept under format 2, which merged them: fingerprint-int-float-migration.spec.ts.
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
  // Python parity: json.loads (an int only for a plain integer literal) / float.__repr__
  ['1', '1.0'],
  ['0', '0.0'],
  ['0', '-0.0'],
  ['-0.0', '0.0'],
  ['1e16', '10000000000000000'],
  ['100000', '1E5'],
  ['[1, 2.0]', '[1.0, 2]'],
];

/** Two spellings of one Python value. */
const SAME: [string, string][] = [
  ['-0', '0'],
  ['-0', '-0'],
  ['1E5', '100000.0'],
  ['1.0', '1.00'],
  ['-0.0', '-0e0'],
  ['1e16', '10000000000000000.0'],
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
    // The app keys rows from the file's text (JSON.parse, which reads 1 and 1.0 as one number): the same as from the value.
    expect(textFingerprint(episodeText(a))).toBe(fp(a));
    expect(textFingerprint(episodeText(b))).toBe(fp(b));
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

describe("fingerprints from the text: a float literal outside the episode's task and trajectory", () => {
  const withReward = (amount: string, reward: string): string => episodeText(amount).replace(/^\{/, `{"reward": ${reward}, `);
  it.each([
    ['1', '1.0'],
    ['1.0', '1.0'],
    ['0', '-0.0'],
    ['2', '1.0'],
  ])('amount %s beside "reward": %s is keyed as the amount alone', (amount, reward) => {
    expect(textFingerprint(withReward(amount, reward))).toBe(fp(amount));
  });

  it('a float literal inside a string is text', () => {
    const text = episodeText('1').replace('"refund"', '"refund \\"1.0\\" -0.0 1e0"');
    expect(textFingerprint(text)).toBe(episodeFingerprint({ raw: parseJson(text) }));
  });
});
