import { expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/py/hash';
import { hashableStr } from '../../../src/core/py/hashable';
import { parseJson } from '../../../src/core/py/json-parse';
import { toPlain } from '../../../src/core/py/value';
import { evalPyLiteral, litStr } from '../../support/py-literal';
import { describeShared, readShared } from '../../support/shared';

interface ReprCase {
  readonly python_literal_source: string;
  readonly python_str_output: string;
  readonly sha256_utf8: string;
  readonly category: string;
  readonly note?: string;
  readonly json_input?: string;
}

describeShared('python-repr-cases.json (str() on CPython 3.11.7)', () => {
  const cases = toPlain(parseJson(readShared('expected', 'python-repr-cases.json'))) as ReprCase[];
  it('has the 122 vectors', () => expect(cases).toHaveLength(122));

  it.each(cases.map((c) => [c.category, c.python_literal_source, c] as const))('%s: %s', (_category, source, c) => {
    const out = litStr(evalPyLiteral(source));
    expect(out).toBe(c.python_str_output);
    expect(sha256Hex(out)).toBe(c.sha256_utf8);
  });

  const withJson = cases.filter((c) => c.json_input !== undefined);
  it('has 36 vectors with json_input', () => expect(withJson).toHaveLength(36));

  it.each(withJson.map((c) => [c.json_input!, c] as const))('to_hashable(json.loads(%s))', (json, c) => {
    expect(hashableStr(parseJson(json))).toBe(c.python_str_output);
  });
});
