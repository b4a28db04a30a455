import { describe, expect, it } from 'vitest';
import { hashableStr } from '../../src/core/py/hashable';
import { sha256Hex } from '../../src/core/py/hash';
import { parseJson } from '../../src/core/py/json-parse';
import { NONPRINTABLE_RANGES } from '../../src/core/py/nonprintable-ranges';
import { hasShared, readShared } from '../support/shared';
import { evalLiteral, strLit } from '../support/py-literal';

interface Case {
  python_literal_source: string;
  python_str_output: string;
  sha256_utf8: string;
  category: string;
  json_input?: string;
}

const cases: Case[] = hasShared ? (JSON.parse(readShared('expected', 'python-repr-cases.json')) as Case[]) : [];

describe.skipIf(!hasShared)('python-repr-cases.json (str() on CPython 3.11.7)', () => {
  it('has all 122 vectors', () => expect(cases.length).toBe(122));

  it.each(cases.map((c) => [c.category, c.python_literal_source, c] as const))('%s: %s', (_cat, _src, c) => {
    const out = strLit(evalLiteral(c.python_literal_source));
    expect(out).toBe(c.python_str_output);
    expect(sha256Hex(out)).toBe(c.sha256_utf8);
    if (c.json_input !== undefined) expect(hashableStr(parseJson(c.json_input))).toBe(c.python_str_output);
  });
});

describe.skipIf(!hasShared)('py311-unicode14-nonprintable-ranges.json', () => {
  it('equals the table generated from Unicode 14.0.0', () => {
    const raw = JSON.parse(readShared('expected', 'py311-unicode14-nonprintable-ranges.json')) as unknown;
    const list = (Array.isArray(raw) ? raw : ((raw as Record<string, unknown>).ranges as unknown[])) as unknown[];
    const pairs = list.map((r) => (Array.isArray(r) ? (r as number[]) : [(r as { start: number }).start, (r as { end: number }).end]));
    const ours: number[][] = [];
    for (let i = 0; i < NONPRINTABLE_RANGES.length; i += 2) ours.push([NONPRINTABLE_RANGES[i]!, NONPRINTABLE_RANGES[i + 1]!]);
    expect(ours).toEqual(pairs.map((p) => p.map(Number)));
  });
});
