/**
 * A library folder's results file is read once (folder-library.ts): its bytes hashed and, when they cannot open a
 * results object, judged as τ-bench's list without decoding them for τ²'s reader. `mayOpenObject` must say maybe for
 * every text τ²'s reader would take, whatever white space, BOM or bytes come first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayOpenObject } from '../../src/worker/library/folder-library';
import { readTau2OrNull } from '../../src/worker/tau2/read';

const encode = (s: string): Uint8Array => new TextEncoder().encode(s);
/** What τ²'s reader looks at before it parses (`readTau2Text`): the text, BOM and leading white space left out. */
const opensObject = (bytes: Uint8Array): boolean =>
  new TextDecoder()
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{');

describe("a library file's first bytes: τ²'s results object or not", () => {
  it('τ-bench lists, empty files and other ASCII openings are not; an object, a BOM or other white space first may be', () => {
    expect(mayOpenObject(encode('[{"task_id": 1}]'))).toBe(false);
    expect(mayOpenObject(encode(' \t\r\n\v\f[]'))).toBe(false);
    expect(mayOpenObject(encode(''))).toBe(false);
    expect(mayOpenObject(encode('   '))).toBe(false);
    expect(mayOpenObject(encode('\u001c{}'))).toBe(false);
    expect(mayOpenObject(encode('null'))).toBe(false);
    expect(mayOpenObject(encode('\n {"simulations": []}'))).toBe(true);
    expect(mayOpenObject(encode('\uFEFF{}'))).toBe(true);
    expect(mayOpenObject(encode('\u00a0\u2028{}'))).toBe(true);
    expect(mayOpenObject(encode('\u00a0['))).toBe(true);
  });

  it('never says no to a text τ²’s reader would parse, and τ²’s reader takes none it says no to (seeded)', () => {
    const piece = fc.constantFrom(' ', '\t', '\n', '\r', '\v', '\f', '\u001c', '\u00a0', '\u2028', '\u3000', '\uFEFF', '{', '[', '"', 'x', '1', 'é', '\u0000');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom('', '}', ']', '{"a": 1}'), (head, tail) => {
        const bytes = encode(head.join('') + tail);
        if (opensObject(bytes)) expect(mayOpenObject(bytes)).toBe(true);
        if (!mayOpenObject(bytes)) expect(readTau2OrNull(new TextDecoder().decode(bytes))).toBeNull();
      }),
      { seed: 36, numRuns: 3000 },
    );
  });
});
