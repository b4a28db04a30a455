import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/py/json-parse';
import { NONPRINTABLE_RANGES } from '../../src/core/py/nonprintable-ranges';
import { toPlain } from '../../src/core/py/value';
import { hasShared, readShared } from '../support/shared';

interface RangesFile {
  readonly python: string;
  readonly unicodedata: string;
  readonly ranges: readonly (readonly [number, number])[];
}

describe.skipIf(!hasShared)('py311-unicode14-nonprintable-ranges.json', () => {
  const file = hasShared ? (toPlain(parseJson(readShared('expected', 'py311-unicode14-nonprintable-ranges.json'))) as RangesFile) : null;

  it('is the CPython 3.11.7 / Unicode 14.0.0 table', () => {
    expect(file?.python).toBe('3.11.7');
    expect(file?.unicodedata).toBe('14.0.0');
    expect(file?.ranges).toHaveLength(701);
  });

  it('equals the generated NONPRINTABLE_RANGES', () => {
    const ours: [number, number][] = [];
    for (let i = 0; i < NONPRINTABLE_RANGES.length; i += 2) ours.push([NONPRINTABLE_RANGES[i]!, NONPRINTABLE_RANGES[i + 1]!]);
    expect(ours).toEqual(file?.ranges);
  });
});
