import { unsnappy } from './snappy';
import { list, num, str, sub, ThriftReader, type ThriftStruct } from './thrift';

/**
 * A Parquet file read in the worker, the columns asked for only: what `tau-inspect index` writes through DuckDB
 * (and Spark, pandas and DuckDB write by default) — data pages v1 and v2, PLAIN and dictionary encodings,
 * uncompressed or Snappy, flat columns and lists of one level. Anything else is refused in words, naming it.
 */
export type Cell = string | number | boolean | null | readonly (string | number | boolean | null)[];

interface Leaf {
  readonly name: string;
  readonly type: number;
  readonly maxDef: number;
  readonly maxRep: number;
  /** The definition level at which the repeated ancestor is present (lists). */
  readonly repDef: number;
  /** A DECIMAL stored as an integer: divided by 10^scale (0: not a decimal). */
  readonly scale: number;
}

const TYPE_NAME = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];
const CODEC_NAME = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const ENCODING_NAME: Record<number, string> = {
  0: 'PLAIN',
  2: 'PLAIN_DICTIONARY',
  3: 'RLE',
  4: 'BIT_PACKED',
  5: 'DELTA_BINARY_PACKED',
  6: 'DELTA_LENGTH_BYTE_ARRAY',
  7: 'DELTA_BYTE_ARRAY',
  8: 'RLE_DICTIONARY',
  9: 'BYTE_STREAM_SPLIT',
};
const text = new TextDecoder();
const bitWidth = (max: number): number => (max === 0 ? 0 : 32 - Math.clz32(max));

/** The leaf columns of the schema (its elements in depth-first order), with their levels. */
function leaves(schema: ThriftStruct[]): Leaf[] {
  const out: Leaf[] = [];
  let i = 1;
  const walk = (top: string | null, def: number, rep: number, repDef: number): void => {
    const el = schema[i++];
    if (!el) throw new Error('the schema ends early');
    const repetition = num(el, 3, 0);
    const d = def + (repetition === 0 ? 0 : 1);
    const r = rep + (repetition === 2 ? 1 : 0);
    const rd = repetition === 2 ? d : repDef;
    const name = top ?? str(el, 4) ?? '';
    const children = num(el, 5, 0);
    if (children > 0) for (let c = 0; c < children; c++) walk(name, d, r, rd);
    else {
      // DECIMAL (converted type 5, or the logical type's decimal) keeps its scale in field 7 (or the logical type's field 1).
      const decimal = num(el, 6) === 5 ? num(el, 7, 0) : num(sub(sub(el, 10), 5), 1, 0);
      out.push({ name, type: num(el, 1), maxDef: d, maxRep: r, repDef: rd, scale: Math.max(0, decimal) });
    }
  };
  const top = num(schema[0], 5, 0);
  for (let c = 0; c < top; c++) walk(null, 0, 0, 0);
  return out;
}

/** The RLE / bit-packed hybrid of `count` values of `width` bits, from `pos`. */
function hybrid(b: Uint8Array, pos: number, end: number, width: number, count: number): Int32Array {
  const out = new Int32Array(count);
  let n = 0;
  const bytes = Math.ceil(width / 8);
  while (n < count && pos < end) {
    let head = 0;
    for (let shift = 1; ; shift *= 128) {
      const x = b[pos++]!;
      head += (x & 0x7f) * shift;
      if ((x & 0x80) === 0) break;
    }
    if (head % 2 === 1) {
      const values = Math.floor(head / 2) * 8;
      let acc = 0;
      let bits = 0;
      for (let v = 0; v < values; v++) {
        while (bits < width) {
          acc |= (b[pos++] ?? 0) << bits;
          bits += 8;
        }
        if (n < count) out[n++] = acc & ((1 << width) - 1);
        acc >>>= width;
        bits -= width;
      }
    } else {
      let v = 0;
      for (let k = 0; k < bytes; k++) v |= b[pos++]! << (8 * k);
      const run = Math.floor(head / 2);
      for (let k = 0; k < run && n < count; k++) out[n++] = v;
    }
  }
  if (n < count) throw new Error('a page’s levels or dictionary indices end early');
  return out;
}

/** `count` PLAIN values of a physical type. */
function plain(b: Uint8Array, pos: number, type: number, count: number): (string | number | boolean)[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: (string | number | boolean)[] = new Array<string | number | boolean>(count);
  for (let i = 0; i < count; i++) {
    switch (type) {
      case 0:
        out[i] = ((b[pos + (i >> 3)]! >> (i & 7)) & 1) === 1;
        break;
      case 1:
        out[i] = view.getInt32(pos + 4 * i, true);
        break;
      case 2:
        out[i] = Number(view.getBigInt64(pos + 8 * i, true));
        break;
      case 4:
        out[i] = view.getFloat32(pos + 4 * i, true);
        break;
      case 5:
        out[i] = view.getFloat64(pos + 8 * i, true);
        break;
      case 6: {
        const len = view.getUint32(pos, true);
        out[i] = text.decode(b.subarray(pos + 4, pos + 4 + len));
        pos += 4 + len;
        break;
      }
      default:
        throw new Error(`a column of type ${TYPE_NAME[type] ?? type}, which this reader does not read`);
    }
  }
  return out;
}

function decompress(codec: number, data: Uint8Array): Uint8Array {
  if (codec === 0) return data;
  if (codec === 1) return unsnappy(data);
  throw new Error(`it is compressed with ${CODEC_NAME[codec] ?? codec}; this reader reads uncompressed and Snappy Parquet (DuckDB's and Spark's default)`);
}

/** One column chunk's values as cells, row by row. */
function readChunk(b: Uint8Array, leaf: Leaf, meta: ThriftStruct, out: Cell[]): void {
  const codec = num(meta, 4, 0);
  const total = num(meta, 5, 0);
  const dictAt = num(meta, 11, 0);
  let pos = dictAt > 0 ? Math.min(dictAt, num(meta, 9)) : num(meta, 9);
  let dict: (string | number | boolean)[] = [];
  let seen = 0;
  let row: (string | number | boolean | null)[] | null = null;
  let started = false;
  while (seen < total) {
    const r = new ThriftReader(b, pos);
    const head = r.struct();
    const size = num(head, 3);
    const body = b.subarray(r.pos, r.pos + size);
    pos = r.pos + size;
    const type = num(head, 1);
    if (type === 2) {
      dict = plain(decompress(codec, body), 0, leaf.type, num(sub(head, 7), 1, 0));
      continue;
    }
    if (type !== 0 && type !== 3) continue;
    const v2 = type === 3;
    const h = v2 ? sub(head, 8) : sub(head, 5);
    const count = num(h, 1, 0);
    let reps: Int32Array | null = null;
    let defs: Int32Array | null = null;
    let data: Uint8Array;
    let at = 0;
    if (v2) {
      const repLen = num(h, 6, 0);
      const defLen = num(h, 5, 0);
      if (leaf.maxRep > 0) reps = hybrid(body, 0, repLen, bitWidth(leaf.maxRep), count);
      if (leaf.maxDef > 0) defs = hybrid(body, repLen, repLen + defLen, bitWidth(leaf.maxDef), count);
      const values = body.subarray(repLen + defLen);
      data = h?.get(7) === false ? values : decompress(codec, values);
    } else {
      data = decompress(codec, body);
      const levels = (max: number): Int32Array => {
        const len = new DataView(data.buffer, data.byteOffset + at, 4).getUint32(0, true);
        const l = hybrid(data, at + 4, at + 4 + len, bitWidth(max), count);
        at += 4 + len;
        return l;
      };
      if (leaf.maxRep > 0) reps = levels(leaf.maxRep);
      if (leaf.maxDef > 0) defs = levels(leaf.maxDef);
    }
    let present = count;
    if (defs) {
      present = 0;
      for (const d of defs) if (d === leaf.maxDef) present++;
    }
    const encoding = num(h, v2 ? 4 : 2, 0);
    let values: (string | number | boolean)[];
    if (encoding === 0) values = plain(data, at, leaf.type, present);
    else if (encoding === 2 || encoding === 8) {
      const idx = hybrid(data, at + 1, data.length, data[at]!, present);
      values = Array.from(idx, (k) => {
        if (k >= dict.length) throw new Error('a dictionary index points past the dictionary');
        return dict[k]!;
      });
    } else throw new Error(`a page is encoded ${ENCODING_NAME[encoding] ?? encoding}, which this reader does not read (it reads PLAIN and dictionaries)`);
    if (leaf.scale > 0) values = values.map((x) => (x as number) / 10 ** leaf.scale);
    let v = 0;
    for (let i = 0; i < count; i++) {
      const d = defs ? defs[i]! : leaf.maxDef;
      const value = d === leaf.maxDef ? values[v++]! : null;
      if (leaf.maxRep === 0) out.push(value);
      else {
        if (reps![i] === 0) {
          if (started) out.push(row);
          started = true;
          row = d < leaf.repDef ? (d === leaf.repDef - 1 ? [] : null) : [];
        }
        if (d >= leaf.repDef) row!.push(value);
      }
    }
    seen += count;
  }
  if (leaf.maxRep > 0 && started) out.push(row);
}

/** The named columns of a Parquet file (a column it lacks is absent from the answer); `rows`: the file's row count. */
export function readParquetColumns(b: Uint8Array, names: readonly string[]): { rows: number; columns: Map<string, Cell[]> } {
  const magic = (at: number): boolean => b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31;
  if (b.length < 12 || !magic(0) || !magic(b.length - 4)) throw new Error('not a Parquet file (no PAR1 at its start and end)');
  const footerLen = new DataView(b.buffer, b.byteOffset + b.length - 8, 4).getUint32(0, true);
  if (footerLen > b.length - 12) throw new Error('its footer length points outside the file');
  const meta = new ThriftReader(b, b.length - 8 - footerLen).struct();
  const all = leaves(list(meta, 2) as ThriftStruct[]);
  const wanted = new Map(all.filter((l) => names.includes(l.name)).map((l) => [l.name, l]));
  for (const l of wanted.values()) if (l.maxRep > 1) throw new Error(`the column ${l.name} is nested deeper than a list`);
  const columns = new Map<string, Cell[]>([...wanted.keys()].map((n) => [n, []]));
  for (const group of list(meta, 4) as ThriftStruct[]) {
    for (const chunk of list(group, 1) as ThriftStruct[]) {
      const cm = sub(chunk, 3);
      const path = (list(cm, 3) as Uint8Array[]).map((p) => text.decode(p));
      const leaf = wanted.get(path[0] ?? '');
      if (!leaf || !cm) continue;
      readChunk(b, leaf, cm, columns.get(leaf.name)!);
    }
  }
  return { rows: num(meta, 3, 0), columns };
}
