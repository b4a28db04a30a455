/**
 * The DB hasher's memo as text between processes (src/core/env/tau2/known-hashes.ts): lines read back as written, and a
 * line damaged anywhere — a digit of its hash, of its digest or of its check, cut short, glued to the next — never taken.
 */
import { expect, it } from 'vitest';
import { knownHashesOf, knownHashesText } from '../../../../src/core/env/tau2/known-hashes';

const hex = (c: string) => c.repeat(64);

it('lines read back as written; a damaged line is passed over, the others kept', () => {
  const entries: [string, string][] = [
    [hex('a'), hex('1')],
    [hex('b'), hex('2')],
    [hex('c'), hex('3')],
  ];
  const text = knownHashesText(entries);
  expect(text.split('\n')).toHaveLength(4);
  expect(knownHashesOf(text)).toEqual(entries);
  const lines = text.split('\n');
  const flip = (l: string, at: number) => `${l.slice(0, at)}${l[at] === '0' ? '1' : '0'}${l.slice(at + 1)}`;
  for (const at of [3, 70, 140]) expect(knownHashesOf([flip(lines[0]!, at), lines[1], lines[2]].join('\n'))).toEqual(entries.slice(1));
  expect(knownHashesOf([lines[0]!.slice(0, 100), lines[1], lines[2]].join('\n'))).toEqual(entries.slice(1));
  expect(knownHashesOf(`${lines[0]!.slice(0, 100)}${lines[1]}\n${lines[2]}\n`)).toEqual(entries.slice(2));
  expect(knownHashesOf('')).toEqual([]);
});
