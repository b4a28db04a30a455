/**
 * A Parquet file's claims checked against its bytes before any reader trusts them (the app's hyparquet, the
 * CLI's DuckDB): the footer's row count against its row groups', each row group's against the pages of each
 * column chunk, every page inside its chunk and every chunk inside the file, page sizes against what their
 * codec can expand to, and the rows against the bytes there are. A forged footer that claims 10^8 rows in
 * 5 KB would otherwise have a reader allocate and loop over what is not there. Only the footer and the page
 * headers are read (a small Thrift compact-protocol reader below, every length checked against the bytes
 * left), never a page's data.
 */

/** The most rows the library reads from one file. */
export const MAX_PARQUET_ROWS = 10_000_000;
/**
 * The most rows a byte of the file may hold. Repeated values compress to almost nothing — a real index of
 * 10^6 episodes is 338 KB (3 rows a byte), 10^6 identical rows of the library's columns as DuckDB writes
 * them 23 KB (43 rows a byte) — but every column chunk still takes its page headers.
 */
export const MAX_ROWS_PER_BYTE = 256;

type Thrift = bigint | number | boolean | Uint8Array | Thrift[] | ThriftStruct | ThriftMap;
interface ThriftStruct {
  readonly [field: number]: Thrift;
}
type ThriftMap = Map<Thrift, Thrift>;

class Damaged extends Error {}

/** Thrift's compact protocol over `bytes[pos, end)`: every length checked against the bytes left, nesting bounded. */
class Compact {
  constructor(
    private readonly bytes: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}

  private byte(): number {
    if (this.pos >= this.end) throw new Damaged('it ends inside a value');
    return this.bytes[this.pos++]!;
  }

  private varint(): bigint {
    let out = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.byte();
      out |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return out;
    }
    throw new Damaged('a number runs over 10 bytes');
  }

  private zigzag(): bigint {
    const n = this.varint();
    return (n >> 1n) ^ -(n & 1n);
  }

  private size(): number {
    const n = this.varint();
    if (n > BigInt(this.end - this.pos)) throw new Damaged(`a length of ${n} runs past the ${this.end - this.pos} bytes left`);
    return Number(n);
  }

  private value(type: number, depth: number): Thrift {
    if (depth > 64) throw new Damaged('values nested more than 64 deep');
    switch (type) {
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return this.byte();
      case 4:
      case 5:
        return Number(this.zigzag());
      case 6:
        return this.zigzag();
      case 7:
        if (this.end - this.pos < 8) throw new Damaged('it ends inside a number');
        this.pos += 8;
        return 0;
      case 8: {
        const n = this.size();
        this.pos += n;
        return this.bytes.subarray(this.pos - n, this.pos);
      }
      case 9:
      case 10: {
        const h = this.byte();
        let n = h >> 4;
        if (n === 15) n = this.size();
        // Every element takes a byte at least (booleans in a list too): a count past the bytes left is a lie.
        else if (n > this.end - this.pos) throw new Damaged(`a list of ${n} runs past the bytes left`);
        const t = h & 0x0f;
        const out: Thrift[] = [];
        for (let i = 0; i < n; i++) out.push(t === 1 || t === 2 ? this.byte() === 1 : this.value(t, depth + 1));
        return out;
      }
      case 11: {
        const n = this.size();
        const out: ThriftMap = new Map();
        if (n === 0) return out;
        const kv = this.byte();
        for (let i = 0; i < n; i++) out.set(this.value(kv >> 4, depth + 1), this.value(kv & 0x0f, depth + 1));
        return out;
      }
      case 12:
        return this.struct(depth + 1);
      default:
        throw new Damaged(`a value of unknown type ${type}`);
    }
  }

  struct(depth = 0): ThriftStruct {
    const out = Object.create(null) as Record<number, Thrift>;
    let id = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return out;
      const delta = h >> 4;
      id = delta === 0 ? Number(this.zigzag()) : id + delta;
      out[id] = this.value(h & 0x0f, depth);
    }
  }
}

const int = (v: Thrift | undefined): bigint | null => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : null);
const struct = (v: Thrift | undefined): ThriftStruct | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Map) ? v : null;
const list = (v: Thrift | undefined): Thrift[] => (Array.isArray(v) ? v : []);
const utf8 = new TextDecoder();
const text = (v: Thrift | undefined): string => (v instanceof Uint8Array ? utf8.decode(v) : '');
const count = (n: bigint | number): string => BigInt(n).toLocaleString('en-US');

/** Most a page can expand to, by codec: stored as is; Snappy at most 22× (a 64-byte copy in 3 bytes); any other at most 1032× (deflate's bound). */
const expansion = (codec: number): bigint => (codec === 0 ? 1n : codec === 1 ? 32n : 1032n);

/**
 * Why `bytes` (a whole Parquet file) claims more than it holds, in a sentence; null when its footer, row groups
 * and page headers agree with each other and with its size. A file without Parquet's magic is left to the
 * reader to refuse (null).
 */
export function parquetBoundsProblem(bytes: Uint8Array): string | null {
  try {
    return check(bytes);
  } catch (e) {
    if (e instanceof Damaged) return `its Parquet footer is damaged (${e.message})`;
    throw e;
  }
}

const MAGIC = [0x50, 0x41, 0x52, 0x31];

function check(bytes: Uint8Array): string | null {
  const size = bytes.length;
  const magicAt = (at: number): boolean => MAGIC.every((b, i) => bytes[at + i] === b);
  if (size < 12 || !magicAt(0) || !magicAt(size - 4)) return null;
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset + size - 8, 4).getUint32(0, true);
  if (footerLength > size - 12) return `its footer claims ${count(footerLength)} bytes, but the file has ${count(size - 12)} before it`;
  const footerStart = size - 8 - footerLength;
  const meta = new Compact(bytes, footerStart, size - 8).struct();
  const rows = int(meta[3]);
  if (rows === null || rows < 0n) return 'its footer gives no row count';
  const groups = list(meta[4]).map(struct);
  let inGroups = 0n;
  for (const g of groups) inGroups += int(g?.[3]) ?? 0n;
  if (inGroups !== rows) return `its footer claims ${count(rows)} rows, but its row groups hold ${count(inGroups)}`;
  if (rows > BigInt(MAX_PARQUET_ROWS)) return `it claims ${count(rows)} rows, more than the ${count(MAX_PARQUET_ROWS)} tau-inspect reads from one file`;
  if (rows > BigInt(MAX_ROWS_PER_BYTE) * BigInt(size))
    return `it claims ${count(rows)} rows in ${count(size)} bytes, more than ${MAX_ROWS_PER_BYTE} rows a byte: the rows are not there`;
  // Top-level columns that repeat (lists written without the LIST annotation) hold several values a row.
  const repeated = new Set(
    list(meta[2])
      .map(struct)
      .filter((e) => e?.[3] === 2)
      .map((e) => text(e?.[4])),
  );
  for (const [gi, g] of groups.entries()) {
    const groupRows = int(g?.[3]) ?? 0n;
    if (groupRows < 0n) return `row group ${gi + 1} claims ${count(groupRows)} rows`;
    for (const c of list(g?.[1]).map(struct)) {
      const m = struct(c?.[3]);
      if (m === null) return `a column of row group ${gi + 1} has no metadata`;
      const path = list(m[3]).map(text);
      const name = path.join('.');
      const where = `column ${name} of row group ${gi + 1}`;
      const problem = chunkProblem(bytes, m, footerStart, groupRows, path.length === 1 && !repeated.has(path[0]!), where);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/** The pages of one column chunk against the chunk's bounds, its codec and its row group's rows. */
function chunkProblem(bytes: Uint8Array, m: ThriftStruct, footerStart: number, groupRows: bigint, flat: boolean, where: string): string | null {
  const dataOffset = int(m[9]);
  const dictOffset = int(m[11]);
  const length = int(m[7]);
  const codec = Number(int(m[4]) ?? 0n);
  if (dataOffset === null || length === null) return `${where}: no place in the file`;
  // A reader starts the chunk at its dictionary page when one is named (hyparquet: `dictionary_page_offset ||
  // data_page_offset`): one named anywhere but before the data pages would be read from bytes that are not it.
  if (dictOffset !== null && dictOffset !== 0n && (dictOffset < 4n || dictOffset > dataOffset))
    return `${where}: claims its dictionary page at byte ${count(dictOffset)}, ${dictOffset < 4n ? 'before the file’s data begins' : `after its data pages (byte ${count(dataOffset)})`}`;
  const start = dictOffset !== null && dictOffset > 0n && dictOffset < dataOffset ? dictOffset : dataOffset;
  const end = start + length;
  if (start < 4n || length < 0n || end > BigInt(footerStart))
    return `${where}: claims bytes ${count(start)} to ${count(end)}, but the data ends at byte ${count(footerStart)}`;
  const r = new Compact(bytes, Number(start), Number(end));
  let values = 0n;
  let pageRows = 0n;
  let v2 = false;
  while (r.pos < Number(end)) {
    const h = r.struct();
    const stored = int(h[3]) ?? -1n;
    const expanded = int(h[2]) ?? -1n;
    if (stored < 0n || r.pos + Number(stored) > Number(end))
      return `${where}: a page claims ${count(stored)} bytes, past the end of its column chunk (byte ${count(end)})`;
    const compressed = struct(h[8])?.[7] !== false;
    if (expanded < 0n || expanded > (compressed ? expansion(codec) : 1n) * stored + 1024n)
      return `${where}: a page of ${count(stored)} bytes claims to expand to ${count(expanded)}, more than its compression can`;
    const type = Number(int(h[1]) ?? -1n);
    const n = int(struct(h[type === 3 ? 8 : type === 2 ? 7 : 5])?.[1]) ?? 0n;
    if (n < 0n) return `${where}: a page claims ${count(n)} values`;
    // Each value of a dictionary takes a bit at least (a boolean's); a data page holds no more values than its rows, for a flat column.
    if (type === 2 && n > expanded * 8n) return `${where}: a dictionary page of ${count(expanded)} bytes claims ${count(n)} values`;
    if (type === 0 || type === 3) {
      values += n;
      if (type === 3) {
        v2 = true;
        pageRows += int(struct(h[8])?.[3]) ?? 0n;
      }
    }
    r.pos += Number(stored);
  }
  // A flat column holds one value a row; a nested one at least one (an empty list's), and not past the bytes there are.
  const limit = flat ? groupRows : groupRows + BigInt(MAX_ROWS_PER_BYTE) * (end - start);
  if (values > limit) return `${where}: its pages claim ${count(values)} values for ${count(groupRows)} rows in ${count(end - start)} bytes`;
  const held = v2 ? pageRows : values;
  if (v2 || flat ? held !== groupRows : held < groupRows)
    return `${where}: its row group claims ${count(groupRows)} rows, but its pages hold ${count(held)} ${v2 || flat ? 'rows' : 'values'}`;
  const declared = int(m[5]);
  if (declared !== null && declared !== values) return `${where}: claims ${count(declared)} values, but its pages hold ${count(values)}`;
  return null;
}
