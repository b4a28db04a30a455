import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fieldDiff } from '../../../src/core/view/field-diff';
import { equalAsNumbers } from '../../../src/core/view/findings';
import type { PyValue } from '../../../src/core/py/value';

/**
 * The int-vs-float finding runs the field diff only on records `equalAsNumbers` lets through: a pair it turns away
 * must be one whose field diff is empty or holds a change that is not int vs float (the finding's own test).
 */
const intVsFloatOnly = (a: PyValue, b: PyValue): boolean => {
  const changes = fieldDiff(a, b);
  return changes.length > 0 && changes.every((c) => c.intVsFloat);
};

const leaf: fc.Arbitrary<PyValue> = fc.oneof(fc.constantFrom<PyValue>(0n, 1n, 250n, -3n, 0, -0, 1, 250, 0.5, NaN, Infinity, 'a', '250', '', true, false, null));
const { value } = fc.letrec<{ value: PyValue; list: PyValue[]; dict: Map<string, PyValue> }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('dict')),
  list: fc.array(tie('value'), { maxLength: 3 }),
  dict: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), tie('value')), { maxLength: 3 }).map((kv) => new Map(kv)),
}));

/** `v` with some numbers turned to the other type (equal value), dict keys reordered, and now and then one leaf changed. */
function variant(v: PyValue, r: () => number): PyValue {
  if (typeof v === 'bigint') return r() < 0.5 ? Number(v) : v;
  if (typeof v === 'number') return r() < 0.5 && Number.isInteger(v) && !Object.is(v, -0) ? BigInt(v) : v;
  if (Array.isArray(v)) return r() < 0.05 ? [...v, 1n] : v.map((x) => variant(x, r));
  if (v instanceof Map) {
    const entries = [...v].map(([k, x]) => [k, variant(x, r)] as [string, PyValue]);
    if (r() < 0.3) entries.reverse();
    if (r() < 0.05) entries.push(['z', 'new']);
    return new Map(entries);
  }
  return r() < 0.1 ? 'changed' : v;
}

it('turns away only record pairs whose field diff is not all int vs float (3,000 generated pairs, seeded)', () => {
  let through = 0;
  let found = 0;
  fc.assert(
    fc.property(value, fc.integer(), (a, seed) => {
      let x = seed >>> 0;
      const r = (): number => ((x = (x * 1103515245 + 12345) >>> 0) % 1000) / 1000;
      const b = variant(a, r);
      const whole = intVsFloatOnly(a, b);
      if (whole) found++;
      if (equalAsNumbers(a, b)) through++;
      else expect(whole).toBe(false);
    }),
    { seed: 36, numRuns: 3000 },
  );
  // Both sides of the test were met: pairs let through, and pairs the finding holds for.
  expect(through).toBeGreaterThan(300);
  expect(found).toBeGreaterThan(100);
});
