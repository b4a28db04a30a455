/**
 * Forged Parquet files for the specs: a real small index written by DuckDB, then its footer's row counts
 * (FileMetaData.num_rows, each RowGroup.num_rows) rewritten to claim what is not there. The footer is the
 * file's last part and Thrift's compact protocol has no byte lengths around structs, so a count is
 * replaced in place, longer or shorter, and only the footer length before `PAR1` is written again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** A library index of `rows` rows (the columns `tau-inspect index` writes that the library reads), as DuckDB writes it. */
export async function smallIndex(dir: string, rows = 9, reward = '(r % 2)::DOUBLE'): Promise<Uint8Array> {
  const path = join(dir, `small-${rows}-${Math.random().toString(36).slice(2)}.parquet`);
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  await c.run(`COPY (
    SELECT 'runs/a.json' AS file, r::INTEGER AS "index", 'tau2' AS benchmark, 'mock' AS domain, (r % 3)::VARCHAR AS task_id,
      (r // 3)::INTEGER AS trial, 1.0 AS recorded_reward, ${reward} AS reward, 'h' AS content_hash, NULL::VARCHAR AS error,
      []::VARCHAR[] AS finding_kinds, 3::INTEGER AS num_trials
    FROM range(${rows}) t(r)) TO '${path}' (FORMAT parquet)`);
  c.closeSync();
  return new Uint8Array(readFileSync(path));
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Walks a compact-protocol struct from `pos`, calling `at(path, span)` for each i64 field's value (path: field ids and list positions). */
function walk(b: Uint8Array, pos: number, at: (path: readonly number[], span: Span) => void, path: readonly number[] = []): number {
  const varint = (): number => {
    while (b[pos++]! & 0x80);
    return pos;
  };
  const readVarint = (): number => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const x = b[pos++]!;
      n += (x & 0x7f) * 2 ** shift;
      if (!(x & 0x80)) return n;
      shift += 7;
    }
  };
  const skip = (type: number, p: readonly number[], inList = false): void => {
    // A boolean field's value is in its type; a boolean in a list takes a byte.
    if (type === 1 || type === 2) {
      if (inList) pos++;
      return;
    }
    if (type === 3) pos++;
    else if (type === 4 || type === 5) varint();
    else if (type === 6) {
      const start = pos;
      at(p, { start, end: varint() });
    } else if (type === 7) pos += 8;
    else if (type === 8) {
      const n = readVarint(); // read first: `pos += readVarint()` would add to the position before the length
      pos += n;
    } else if (type === 9 || type === 10) {
      const h = b[pos++]!;
      const n = h >> 4 === 15 ? readVarint() : h >> 4;
      for (let i = 0; i < n; i++) skip(h & 0x0f, [...p, i], true);
    } else if (type === 12) pos = walk(b, pos, at, p);
    else throw new Error(`thrift type ${type} not handled`);
  };
  let id = 0;
  for (;;) {
    const h = b[pos++]!;
    if (h === 0) return pos;
    id =
      h >> 4 === 0
        ? (() => {
            const z = readVarint();
            return (z >>> 1) ^ -(z & 1);
          })()
        : id + (h >> 4);
    skip(h & 0x0f, [...path, id]);
  }
}

/** An unsigned LEB128 varint of a zigzag-encoded i64. */
function zigzagVarint(n: bigint): number[] {
  let z = n >= 0n ? n << 1n : (-n << 1n) - 1n;
  const out: number[] = [];
  do {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    out.push(z > 0n ? low | 0x80 : low);
  } while (z > 0n);
  return out;
}

/**
 * `bytes` with the footer's row count set to `footer` and every row group's to `groups` (each left as it is
 * when not given); the data pages are untouched.
 */
export function claimRows(bytes: Uint8Array, claims: { readonly footer?: bigint; readonly groups?: bigint }): Uint8Array {
  // FileMetaData.num_rows is field 3; RowGroup.num_rows is field 3 of each element of row_groups (field 4).
  return forgeFooter(bytes, (path) =>
    path.length === 1 && path[0] === 3 ? claims.footer : path.length === 3 && path[0] === 4 && path[2] === 3 ? claims.groups : undefined,
  );
}

/**
 * `bytes` with each i64 of the footer that `pick` gives a value for (by its path of field ids and list positions, e.g.
 * [4, 0, 1, 2, 3, 9]: row group 0, column 2, its meta_data's data_page_offset) set to that value, negative ones too.
 */
export function forgeFooter(bytes: Uint8Array, pick: (path: readonly number[]) => bigint | undefined): Uint8Array {
  const size = bytes.length;
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset + size - 8, 4).getUint32(0, true);
  const footerStart = size - 8 - footerLength;
  const edits: { span: Span; value: bigint }[] = [];
  walk(bytes, footerStart, (path, span) => {
    const value = pick(path);
    if (value !== undefined) edits.push({ span, value });
  });
  const footer: number[] = [];
  let from = footerStart;
  for (const e of edits.sort((a, b) => a.span.start - b.span.start)) {
    footer.push(...bytes.subarray(from, e.span.start), ...zigzagVarint(e.value));
    from = e.span.end;
  }
  footer.push(...bytes.subarray(from, size - 8));
  const out = new Uint8Array(footerStart + footer.length + 8);
  out.set(bytes.subarray(0, footerStart));
  out.set(footer, footerStart);
  new DataView(out.buffer).setUint32(footerStart + footer.length, footer.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.length - 4);
  return out;
}
