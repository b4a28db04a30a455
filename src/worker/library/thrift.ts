/**
 * Thrift's compact protocol, as Parquet's footer and page headers use it: a struct is read into a Map from
 * field id to value (structs as Maps, lists as arrays, binaries as bytes), so a reader takes the fields it
 * knows and skips the rest.
 */
export type ThriftValue = boolean | number | Uint8Array | ThriftValue[] | ThriftStruct;
export type ThriftStruct = Map<number, ThriftValue>;

export class ThriftReader {
  constructor(
    private readonly bytes: Uint8Array,
    public pos = 0,
  ) {}

  private byte(): number {
    if (this.pos >= this.bytes.length) throw new Error('the Thrift metadata ends early');
    return this.bytes[this.pos++]!;
  }

  /** An unsigned varint (up to 2^53 exactly). */
  varint(): number {
    let out = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      out += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return out;
      scale *= 128;
      if (scale > 2 ** 63) throw new Error('a Thrift varint is too long');
    }
  }

  private zigzag(): number {
    const n = this.varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  }

  private value(type: number): ThriftValue {
    switch (type) {
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return (this.byte() << 24) >> 24;
      case 4:
      case 5:
      case 6:
        return this.zigzag();
      case 7: {
        const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8).getFloat64(0, true);
        this.pos += 8;
        return v;
      }
      case 8: {
        const n = this.varint();
        if (this.pos + n > this.bytes.length) throw new Error('a Thrift binary runs past the metadata');
        const b = this.bytes.subarray(this.pos, this.pos + n);
        this.pos += n;
        return b;
      }
      case 9:
      case 10: {
        const head = this.byte();
        const size = head >> 4 === 15 ? this.varint() : head >> 4;
        const elem = head & 15;
        const out: ThriftValue[] = [];
        // Booleans inside a list are one byte each.
        for (let i = 0; i < size; i++) out.push(elem === 1 || elem === 2 ? this.byte() === 1 : this.value(elem));
        return out;
      }
      case 11: {
        const size = this.varint();
        const out: ThriftValue[] = [];
        if (size === 0) return out;
        const kinds = this.byte();
        for (let i = 0; i < size; i++) out.push([this.value(kinds >> 4), this.value(kinds & 15)]);
        return out;
      }
      case 12:
        return this.struct();
      default:
        throw new Error(`an unknown Thrift type ${type}`);
    }
  }

  struct(): ThriftStruct {
    const out: ThriftStruct = new Map();
    let id = 0;
    for (;;) {
      const head = this.byte();
      if (head === 0) return out;
      const delta = head >> 4;
      id = delta === 0 ? this.zigzag() : id + delta;
      out.set(id, this.value(head & 15));
    }
  }
}

const text = new TextDecoder();

/** Field accessors of a decoded struct (absent or of another type: the fallback). */
export const num = (s: ThriftStruct | undefined, id: number, fallback = -1): number => {
  const v = s?.get(id);
  return typeof v === 'number' ? v : fallback;
};
export const str = (s: ThriftStruct | undefined, id: number): string | null => {
  const v = s?.get(id);
  return v instanceof Uint8Array ? text.decode(v) : null;
};
export const sub = (s: ThriftStruct | undefined, id: number): ThriftStruct | undefined => {
  const v = s?.get(id);
  return v instanceof Map ? v : undefined;
};
export const list = (s: ThriftStruct | undefined, id: number): ThriftValue[] => {
  const v = s?.get(id);
  return Array.isArray(v) ? v : [];
};
