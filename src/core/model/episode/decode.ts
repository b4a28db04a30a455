/**
 * The text of a results file from its bytes, the same way in the CLI and the app: UTF-8 with
 * or without a byte-order mark, or UTF-16 with one (what Windows tools write). Invalid UTF-8
 * becomes U+FFFD, so one bad byte damages one string, not the whole file.
 */
export function decodeResultsBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  // TextDecoder drops a leading UTF-8 BOM by itself.
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Episodes read again from the file's bytes (by UTF-8 byte range, as `ReadOptions.elementText`), so
 * the text need not stay in memory. Null when `text` (`decodeResultsBytes(bytes)`) is not exactly
 * the bytes' UTF-8 after a byte-order mark: UTF-16, or bytes that were not UTF-8 and became U+FFFD.
 */
export function utf8Slices(bytes: Uint8Array, text: string): ((byteStart: number, byteEnd: number) => string) | null {
  if (text.includes('\ufffd')) return null;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return null;
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (start, end) => decoder.decode(body.subarray(start, end));
}

/**
 * Where a position of `decodeResultsBytes(bytes)`'s text (a UTF-16 index) is in `bytes`: past a
 * byte-order mark, two bytes a unit in UTF-16, and in UTF-8 counting each character's own bytes —
 * an invalid sequence is as many bytes as the decoder turned into one U+FFFD (the WHATWG "maximal
 * subpart" rule TextDecoder follows), not the three bytes U+FFFD takes when written again. So a
 * damage note's byte offset is where a hex editor finds it. Positions asked for in increasing order
 * are counted on from the last one.
 */
export function byteOffsets(bytes: Uint8Array): (pos: number) => number {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return (pos) => 2 + 2 * pos;
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const n = bytes.length;
  let at = start;
  let units = 0;
  return (pos) => {
    if (pos < units) {
      at = start;
      units = 0;
    }
    while (units < pos && at < n) {
      const b = bytes[at]!;
      if (b < 0x80) {
        at++;
        units++;
        continue;
      }
      let need = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
      }
      let j = at + 1;
      let got = 0;
      while (got < need && j < n && bytes[j]! >= lower && bytes[j]! <= upper) {
        lower = 0x80;
        upper = 0xbf;
        j++;
        got++;
      }
      // A whole character (two units beyond the BMP), or one U+FFFD for the bytes up to the one that broke it.
      units += need > 0 && got === need && need === 3 ? 2 : 1;
      at = j;
    }
    return at + Math.max(0, pos - units);
  };
}
