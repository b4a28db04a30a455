/**
 * Reading a results file into a session (`InspectSession.reader`, `fromBytes`, `fromWholeText`): as its bytes
 * arrive, each episode parsed once; or from its whole text, the careful way, when it is not a plain list.
 */
import { byteOffsets, decodeResultsBytes, utf8Slices } from '../model/episode/decode';
import { ResultsStream } from '../model/episode/results-file';
import type { FileOptions } from '../judge/detect';
import { ReadFile, tallying } from './read-file';
import type { SessionMemory } from './session-types';

/** What the reader needs of the session it makes (an `InspectSession`): its domain, and completing it once the file is in. */
interface ReadSession {
  readonly domain: string;
  complete(): void;
}

/**
 * Opens a session from a file's bytes as they arrive (see `InspectSession.reader`): `push` each
 * chunk in order, then `session()`. Null from `session()` (or false from `push`) means the file is
 * not a plain undamaged UTF-8 list of episodes: open it from its whole text instead (`new
 * InspectSession(decodeResultsBytes(bytes), …)`), which locates and explains what is unusual.
 */
export interface SessionReader<S extends ReadSession> {
  push(chunk: Uint8Array): boolean;
  /** Episodes read so far. */
  readonly count: number;
  /**
   * A session on the episodes read so far, made once (null before there is an episode whose
   * domain can be told, or once the file is known not to be plain): its `records` grow as chunks
   * are pushed, and it is `reading` until `session()` completes it. Verdicts made meanwhile rest on
   * a provisional data version (`useData`'s sample of the recorded hashes read so far); `settleData`
   * and `finish` wait for the whole file.
   */
  early(): S | null;
  /**
   * The session on the whole file: the early one, completed, when the file was a plain list and its
   * domain is the one the early session took; otherwise a new session (then every verdict of the early
   * one is void). Null: not a plain list (see above).
   */
  session(): S | null;
}

/**
 * `InspectSession.reader`'s reader: `make` makes the session on what is read (the early one, `growing`, or the
 * whole file's).
 */
export function streamReader<S extends ReadSession>(
  elementText: (byteStart: number, byteEnd: number) => string,
  options: FileOptions,
  memory: Omit<SessionMemory, 'elementText' | 'byteOffset'>,
  make: (file: ReadFile) => S,
): SessionReader<S> {
  const t = tallying(memory);
  const stream = new ResultsStream(elementText, t.visit);
  let plain = true;
  let early: S | null = null;
  return {
    push: (chunk) => (plain = plain && stream.push(chunk)),
    get count() {
      return stream.count;
    },
    early: () => {
      if (early || !plain || stream.count === 0) return plain ? early : null;
      try {
        t.tally.chooseDomain(options);
      } catch {
        return null;
      }
      early = make(new ReadFile(stream.sofar(), t.tally, t.headers, true));
      return early;
    },
    session: () => {
      const file = stream.end();
      if (file === null) return null;
      if (early && t.tally.chooseDomain(options).domain === early.domain) {
        early.complete();
        return early;
      }
      return make(new ReadFile(file, t.tally, t.headers));
    },
  };
}

/** The UTF-8 text of a byte range of `bytes` (what `streamReader` reads episodes again with). */
export function bytesText(bytes: Uint8Array): (start: number, end: number) => string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return (start, end) => decoder.decode(bytes.subarray(start, end));
}

/** `bytes` pushed to `reader` `chunkBytes` at a time: the session, or null when the file is not a plain list. */
export function readInChunks<S extends ReadSession>(reader: SessionReader<S>, bytes: Uint8Array, chunkBytes: number): S | null {
  // Whole bytes a chunk, at least one (a chunk size of 0 or below never moved on: it hung).
  const step = chunkBytes >= 1 ? Math.floor(chunkBytes) : 1;
  let plain = true;
  for (let at = 0; plain && at < bytes.length; at += step) plain = reader.push(bytes.subarray(at, at + step));
  return plain ? reader.session() : null;
}

/**
 * A file's whole text (`decodeResultsBytes`) and the memory to read it with: episodes are read again from the bytes
 * when their text is exactly the bytes' UTF-8 (`utf8Slices`), else from the text.
 */
export function wholeTextSource(bytes: Uint8Array, memory: Omit<SessionMemory, 'elementText' | 'byteOffset'>): { text: string; memory: SessionMemory } {
  const text = decodeResultsBytes(bytes);
  const slices = utf8Slices(bytes, text);
  return { text, memory: { ...memory, byteOffset: byteOffsets(bytes), ...(slices && { elementText: slices }) } };
}
