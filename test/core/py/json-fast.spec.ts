/**
 * `parseJson`'s `JSON.parse` fast path (src/core/py/json-fast.ts) against the module's own reader
 * (`parseJsonExact`, Python's `json.loads` rule by rule): every text gives the same value (dict order, int vs float,
 * bigints, -0.0, NaN) or the same error, and the fast path declines what it cannot read exactly.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastJsonLoads } from '../../../src/core/py/json-fast';
import { parseJson, parseJsonExact } from '../../../src/core/py/json-parse';
import { COMMITS, DATA_DIR, describeShared, SHARED_DIR } from '../../support/shared';

const TAU2_COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';

/** The same Python value: types (bigint = int, number = float), Map key order, -0.0 and NaN as Python tells them. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b);
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    const bk = [...b.keys()];
    return [...a].every(([k, v], i) => bk[i] === k && same(v, b.get(k)));
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  return a === b;
}

type Outcome = { ok: true; value: unknown; deepest: number } | { ok: false; error: string };
const outcome = (read: (t: string, o: { deepest: { value: number } }) => unknown, text: string): Outcome => {
  const deepest = { value: -1 };
  try {
    return { ok: true, value: read(text, { deepest }), deepest: deepest.value };
  } catch (e) {
    return { ok: false, error: `${(e as Error).constructor.name} ${(e as Error).message}` };
  }
};

function expectSame(text: string): void {
  const exact = outcome(parseJsonExact, text);
  const fast = outcome(parseJson, text);
  if (exact.ok && fast.ok) {
    expect(same(fast.value, exact.value), text.slice(0, 200)).toBe(true);
    expect(fast.deepest).toBe(exact.deepest);
  } else expect(fast).toEqual(exact);
}

const CASES: readonly [string, string, 'fast' | 'declined'][] = [
  ['an int and a float of the same value', '{"a": 1, "b": 1.0, "c": -0, "d": -0.0, "e": 1e5, "f": 2E-3}', 'fast'],
  ['ints past 2^53', '[9007199254740993, -12345678901234567890123, 1e400, -1e400]', 'fast'],
  ['numbers inside strings are not numbers', '{"a\\"1.5": "2.5 \\\\", "b": [3, "4.0"], "c": 4.0}', 'fast'],
  ['escapes and surrogates', '["\\u00e9\\ud83d\\ude00", "\\ud800", "\\/\\b\\f\\n\\r\\t", "é"]', 'fast'],
  ['a key named __proto__', '{"__proto__": {"x": 1}, "constructor": 2.0}', 'fast'],
  ['empty containers and scalars', '[{}, [], null, true, false, "", 0]', 'fast'],
  ['a scalar alone', ' 7 ', 'fast'],
  ['array-index keys (JavaScript would put them first): their order from the text', '{"b": 1, "10": 2.0, "0": [3, {"9": 1.5, "x": 2}], "01": 4}', 'fast'],
  ['an array-index key repeated', '{"b": 1, "10": 2.0, "10": 3}', 'declined'],
  ['an array-index key after a repeated key', '{"a": 1.0, "a": 2, "z": {"5": 1, "y": 2.5}}', 'declined'],
  ['a duplicate key whose first value held a float', '{"a": "x", "b": 1.0, "a": 2}', 'declined'],
  ['a duplicate key without numbers', '{"a": "x", "a": "y", "b": [1, 2.0]}', 'declined'],
  ['NaN and Infinity (Python reads them)', '[NaN, Infinity, -Infinity, 1.5]', 'declined'],
  ['an int of 4,301 digits', `[${'9'.repeat(4301)}]`, 'declined'],
  ['nested past the recursion limit', `${'['.repeat(901)}1${']'.repeat(901)}`, 'declined'],
  ['a control character in a string', '["a\tb"]', 'declined'],
  ['text after the value', '{"a": 1} x', 'declined'],
  ['a trailing comma', '[1, 2,]', 'declined'],
];

describe('parseJson: the JSON.parse fast path reads as json.loads does', () => {
  it.each(CASES)('%s', (_name, text, path) => {
    expectSame(text);
    expect(fastJsonLoads(text, 900) === null ? 'declined' : 'fast').toBe(path);
  });

  it('agrees with the exact reader on 3,000 generated texts (seeded): values, errors, depth', () => {
    const key = fc.oneof(fc.constantFrom('a', 'b', '0', '7', '10', '01', '__proto__', 'toString', 'x"y', 'é'), fc.string({ maxLength: 4 }));
    const num = fc.oneof(
      fc.integer().map(String),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Number.isInteger(d) ? `${d}.0` : String(d))),
      fc.constantFrom('-0', '-0.0', '1e400', '1E5', '0.1e-2', 'NaN', '-Infinity', '01', '1.', '.5', '+1'),
    );
    const str = fc.oneof(
      fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
      fc.constantFrom('"\\ud800"', '"a\\"1.5"', '"\\\\"', '"x\\u0000"', '"bad\\q"', '"tab\there"'),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, num, str, fc.constantFrom('null', 'true', 'false'), tie('list'), tie('dict')),
      list: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
      dict: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`),
    }));
    const text = fc
      .tuple(value as fc.Arbitrary<string>, fc.constantFrom('', ' ', '\n', ' x', ','))
      .map(([v, tail]) => v + (tail === ' x' || tail === ',' ? tail : tail));
    fc.assert(
      fc.property(text, (t) => {
        expectSame(t);
      }),
      { seed: 20261205, numRuns: 3000 },
    );
  });
});

describe('the exact reader: a string with escapes unescaped by JSON.parse reads as rule by rule', () => {
  const pieces = [
    'a',
    'é',
    '😀',
    ' ',
    '\u2028',
    '\\"',
    '\\\\',
    '\\/',
    '\\b',
    '\\f',
    '\\n',
    '\\r',
    '\\t',
    '\\u0041',
    '\\u00e9',
    '\\u0000',
    '\\ud83d\\ude00',
    '\\ud800',
    '\\udc00',
    '\\udc00\\ud800',
    '\\ud800\\u0041',
    '\\uD83D\\uDE00',
    // Refused: Python's words come from the reader by rule either way.
    '\\q',
    '\\u12',
    '\\u12g4',
    '\\x41',
    '\t',
    '\u0001',
    '\\',
  ];
  const outcomeOf = (text: string, byRule: boolean): string => {
    try {
      return `value ${JSON.stringify([...String(JSON.stringify(parseJsonExact(text, { byRule }), (_k, v: unknown) => (v instanceof Map ? [...v] : v)))].map((c) => c.codePointAt(0)))}`;
    } catch (e) {
      return `error ${(e as Error).message}`;
    }
  };
  it('3,000 generated strings, alone, as a key and inside a list, some left unterminated (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), fc.constantFrom('alone', 'key', 'list', 'open'), (ps, where) => {
        const body = ps.join('');
        const text = where === 'alone' ? `"${body}"` : where === 'key' ? `{"${body}": "${body}x"}` : where === 'list' ? `["${body}", 1]` : `["${body}`;
        expect(outcomeOf(text, false)).toBe(outcomeOf(text, true));
      }),
      { seed: 36, numRuns: 3000 },
    );
  });
});

describeShared('parseJson: the fast path on the benchmarks’ files', () => {
  const tau2Runs = join(SHARED_DIR, 'tau2', 'runs');
  const files = [
    ...readdirSync(tau2Runs)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(tau2Runs, f)),
    ...['airline', 'retail'].map((d) => join(SHARED_DIR, 'tau2', 'data', TAU2_COMMIT, 'data', 'tau2', 'domains', d, 'db.json')),
    ...['airline', 'retail'].flatMap((d) => {
      const dir = join(DATA_DIR, COMMITS.pinned, 'tau_bench', 'envs', d, 'data');
      return readdirSync(dir).map((f) => join(dir, f));
    }),
  ];
  it('reads every τ² results file of ../shared/tau2/runs and the airline and retail DBs of both benchmarks (τ²’s airline DB has an array-index key) through the fast path, with the exact reader’s values', () => {
    let taken = 0;
    for (const f of files.filter((x) => x.endsWith('.json'))) {
      const text = readFileSync(f, 'utf8');
      expect(fastJsonLoads(text, 900), f).not.toBeNull();
      expectSame(text);
      taken++;
    }
    expect(taken).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
