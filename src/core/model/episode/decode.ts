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
