import { describe, expect, it } from 'vitest';
import { reparser } from '../../../src/core/model/episode/lazy-records';
import { parseJson } from '../../../src/core/py/json-parse';

/** Element k of a text of elements: `{"k": k, "traj": [...]}` at [10k, 10k + 10) of a made-up text. */
const textOf = (k: number): string => `{"k": ${k}, "traj": [{"role": "user"}]}`;

function counted() {
  const sliced: number[] = [];
  const read = reparser((start) => {
    sliced.push(start / 10);
    return textOf(start / 10);
  });
  return { read, sliced, at: (k: number) => read(10 * k, 10 * k + 10) };
}

describe('reparser: parses handed over are kept until read, then as one of the last few read', () => {
  it('a seeded parse is the one read (no parse), and read again while among the last six read', () => {
    const { read, sliced, at } = counted();
    const seeded = parseJson(textOf(0));
    read.seed(0, 10, seeded);
    expect(at(0).raw).toBe(seeded);
    expect(at(0).raw).toBe(seeded);
    expect(sliced).toEqual([]);
    for (let k = 1; k <= 5; k++) at(k);
    expect(at(0).raw).toBe(seeded);
    expect(sliced).toEqual([1, 2, 3, 4, 5]);
    for (let k = 6; k <= 11; k++) at(k);
    // Six others read since: parsed again from its text, the same value.
    expect(at(0).raw).not.toBe(seeded);
    expect(at(0).raw).toEqual(seeded);
    expect(sliced.at(-1)).toBe(0);
  });

  it('parses handed over and not read yet wait for their reading, 128 at most (the oldest let go first)', () => {
    const { read, sliced, at } = counted();
    for (let k = 0; k < 130; k++) read.seed(10 * k, 10 * k + 10, parseJson(textOf(k)));
    for (let k = 2; k < 130; k++) at(k);
    expect(sliced).toEqual([]);
    at(0);
    at(1);
    expect(sliced).toEqual([0, 1]);
    expect(at(129).traj).toEqual([parseJson('{"role": "user"}')]);
  });
});
