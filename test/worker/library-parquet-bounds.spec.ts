/**
 * A forged runs index (issue #35 class 7): the library reads a runs.parquet through hyparquet, which sizes
 * its arrays and loops by the row counts in the footer. A 5 KB file whose footer and row group claim 10^8
 * rows crashed the page (Node: out of memory), one whose footer alone claims them showed "100000000
 * episodes", 2^31 rows looped for minutes. Now every count is checked against the bytes before anything is
 * read, and the file is refused in a sentence. Also (class 9): a reward column of text is named, not read as
 * "no reward" on every run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLibraryParquet } from '../../src/worker/library/parquet';
import { claimRows, smallIndex } from '../support/parquet-forge';

let dir = '';
let real: Uint8Array = new Uint8Array();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquet-bounds-'));
  real = await smallIndex(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const claimed = (bytes: Uint8Array): bigint => BigInt(parquetMetadata(bytes.buffer.slice(bytes.byteOffset) as ArrayBuffer).num_rows);
const refusal = async (bytes: Uint8Array): Promise<string> => {
  try {
    const t = await readLibraryParquet(bytes);
    return `read ${t.run.length} rows`;
  } catch (e) {
    return (e as Error).message;
  }
};

describe('a forged runs.parquet is refused by what is in it, not read by what it claims', () => {
  it('the real file reads (9 rows), as the forged ones start', async () => {
    expect(real.length).toBeLessThan(8000);
    expect(await refusal(real)).toBe('read 9 rows');
  });

  it('the footer alone claims 10^8 rows: refused, no phantom episodes', async () => {
    const forged = claimRows(real, { footer: 100_000_000n });
    expect(claimed(forged)).toBe(100_000_000n);
    expect(await refusal(forged)).toBe('its footer claims 100,000,000 rows, but its row groups hold 9');
  });

  it('footer and row group claim 10^8 rows, or 2^31: refused before anything is allocated', async () => {
    for (const n of [100_000_000n, 2n ** 31n]) {
      const forged = claimRows(real, { footer: n, groups: n });
      expect(claimed(forged)).toBe(n);
      expect(await refusal(forged)).toBe(`it claims ${n.toLocaleString('en-US')} rows, more than the 10,000,000 tau-inspect reads from one file`);
    }
  });

  it('footer and row group claim a count the size allows but the pages do not hold: refused, naming the column', async () => {
    const forged = claimRows(real, { footer: 3_000_000n, groups: 3_000_000n });
    expect(await refusal(forged)).toBe(
      `it claims 3,000,000 rows in ${forged.length.toLocaleString('en-US')} bytes, more than 256 rows a byte: the rows are not there`,
    );
    const near = claimRows(real, { footer: 300n, groups: 300n });
    expect(await refusal(near)).toMatch(/^column file of row group 1: its row group claims 300 rows, but its pages hold 9 rows$/);
  });
});

describe('a column of numbers that holds something else is named', () => {
  it('a reward column of text: refused, naming the column and a value (it read as no reward on every run)', async () => {
    const text = await smallIndex(dir, 9, `CASE WHEN r % 2 = 0 THEN '1.0' ELSE '0.0' END`);
    expect(await refusal(text)).toBe('its reward column holds text ("1.0") (row 1), not numbers: tau-inspect index writes reward as numbers');
  });
});
