/**
 * Held-back variants of issue #35 class 7 (a forged runs.parquet refused by what is in it), beyond
 * library-parquet-bounds.spec.ts: negative row counts in the footer and a row group, a column chunk that claims more
 * values than its row group has rows or a negative number of them, sizes and page offsets past the file's end or
 * negative. Each is refused in a sentence (never read, never a phantom run, never an exception's raw text), or — an
 * offset no reader goes by — the rows read are exactly the real file's. A dictionary page offset past the end was read:
 * the column's values came out "" on every row (a run of no benchmark); now it is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLibraryParquet } from '../../src/worker/library/parquet';
import { claimRows, forgeFooter, smallIndex } from '../support/parquet-forge';

let dir = '';
let real: Uint8Array = new Uint8Array();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquet-bounds-variants-'));
  real = await smallIndex(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outcome = async (bytes: Uint8Array): Promise<string> => {
  try {
    const t = await readLibraryParquet(bytes);
    return `read ${t.run.length} rows`;
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  }
};

/** ColumnMetaData (row group 0, column `c`, field `f`): 5 num_values, 6 total_uncompressed_size, 7 total_compressed_size, 9 data_page_offset, 11 dictionary_page_offset. */
const column = (c: number, f: number, value: bigint) => (path: readonly number[]) =>
  path.length === 6 && path[0] === 4 && path[1] === 0 && path[2] === 1 && path[3] === c && path[4] === 3 && path[5] === f ? value : undefined;

/** A refusal in words: not a read, not a JavaScript error's own text. */
const WORDS = /^refused: [a-z].*[^.]$/;
const RAW = /TypeError|RangeError|undefined|NaN|Invalid|offset is out of bounds|Maximum call stack/;

describe('a forged runs.parquet: more lies', () => {
  it('the real file reads', async () => expect(await outcome(real)).toBe('read 9 rows'));

  it.each([
    ['the footer claims -1 rows', { footer: -1n }],
    ['every row group claims -9 rows', { groups: -9n }],
    ['footer and row groups claim -9 rows', { footer: -9n, groups: -9n }],
    ['footer and row groups claim 0 rows', { footer: 0n, groups: 0n }],
  ])('%s: refused in a sentence', async (_, claims) => {
    const r = await outcome(claimRows(real, claims));
    expect(r).toMatch(WORDS);
    expect(r).not.toMatch(RAW);
  });

  it.each([
    ['a column claims 10^9 values', 1, 5, 1_000_000_000n],
    ['a column claims -5 values', 1, 5, -5n],
    ['a column chunk claims 10^12 compressed bytes', 0, 7, 1_000_000_000_000n],
    ['a column chunk claims -1 compressed bytes', 0, 7, -1n],
    ['a negative data page offset', 2, 9, -100n],
  ])('%s: refused in a sentence', async (_, c, f, value) => {
    const r = await outcome(forgeFooter(real, column(c, f, value)));
    expect(r).toMatch(WORDS);
    expect(r).not.toMatch(RAW);
  });

  it('a data page offset past the end of the file, in a chunk read from its dictionary page: the rows read are the real ones', async () => {
    expect(await readLibraryParquet(forgeFooter(real, column(2, 9, 1_000_000n)))).toEqual(await readLibraryParquet(real));
  });

  it('a dictionary page offset past the end of the file, or negative: refused (hyparquet read the column as "" on every row)', async () => {
    for (const at of [1_000_000n, -7n]) {
      const r = await outcome(forgeFooter(real, column(2, 11, at)));
      expect(r).toMatch(
        /^refused: column benchmark of row group 1: claims its dictionary page at byte -?[\d,]+, (after its data pages \(byte \d+\)|before the file’s data begins)$/,
      );
    }
  });
});
