import { beforeAll, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/py/json-parse';
import { NONPRINTABLE_RANGES } from '../../../src/core/py/nonprintable-ranges';
import { toPlain } from '../../../src/core/py/value';
import { describeShared, readShared } from '../../support/shared';

interface RangesFile {
  readonly python: string;
  readonly unicodedata: string;
  readonly ranges: readonly (readonly [number, number])[];
}

describeShared('py311-unicode14-nonprintable-ranges.json', () => {
  let file: RangesFile | null = null;
  beforeAll(() => {
    file = toPlain(parseJson(readShared('expected', 'py311-unicode14-nonprintable-ranges.json'))) as RangesFile;
  });

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
