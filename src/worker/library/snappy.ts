/** Snappy's raw format (Parquet's default codec) decompressed; damage is refused in words. */
export function unsnappy(src: Uint8Array): Uint8Array {
  let pos = 0;
  let size = 0;
  for (let shift = 1; ; shift *= 128) {
    const b = src[pos++];
    if (b === undefined) throw new Error('a Snappy block ends in its length');
    size += (b & 0x7f) * shift;
    if ((b & 0x80) === 0) break;
  }
  const out = new Uint8Array(size);
  let o = 0;
  const fail = (): never => {
    throw new Error('a Snappy block is damaged');
  };
  while (pos < src.length) {
    const tag = src[pos++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let len = tag >> 2;
      if (len >= 60) {
        const bytes = len - 59;
        len = 0;
        for (let i = 0; i < bytes; i++) len |= src[pos++]! << (8 * i);
      }
      len += 1;
      if (pos + len > src.length || o + len > size) fail();
      out.set(src.subarray(pos, pos + len), o);
      pos += len;
      o += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      len = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | src[pos++]!;
    } else if (kind === 2) {
      len = (tag >> 2) + 1;
      offset = src[pos]! | (src[pos + 1]! << 8);
      pos += 2;
    } else {
      len = (tag >> 2) + 1;
      offset = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      pos += 4;
    }
    if (offset === 0 || offset > o || o + len > size) fail();
    for (let i = 0; i < len; i++, o++) out[o] = out[o - offset]!;
  }
  if (o !== size) fail();
  return out;
}
