/**
 * A results file's bytes, kept while its run is open so each episode can be read again by byte range
 * (its text is never kept). In the browser's worker the newest bytes stay in memory up to a budget
 * (`MEMORY_BYTES`, 128 MB: a file up to that size never leaves it); past it the oldest go into a Blob a
 * part at a time: a copy (a file changed or deleted on disk after it was opened does not matter) that
 * the browser keeps outside this page's process (its blob store, which may page it to disk), read back
 * a window at a time with `FileReaderSync`. Making a Blob costs this thread about 5–15 ms a megabyte
 * (the bytes go to the browser's process), so only bytes past the budget pay it. Where there is no
 * `FileReaderSync` they all stay in memory.
 */
export interface ByteStore {
  append(chunk: Uint8Array): void;
  /** No more bytes come. */
  seal(): void;
  /**
   * Bytes `start` to `end` (exclusive), also while bytes are still appended (from those appended so far):
   * often a view of bytes the store keeps, so callers copy what they keep or hand over, and never write to it.
   */
  read(start: number, end: number): Uint8Array;
  /** Every byte, for a file read from its whole text (the careful reader); once sealed. */
  all(): Uint8Array;
}

/** Bytes gathered into one part (the unit moved to the blob store). */
const PART_BYTES = 8 << 20;
/** Bytes read at once from the blob store: episodes read in file order (a search, a report) need one read per window. */
const WINDOW_BYTES = 2 << 20;
/** The newest bytes kept in memory; older parts go to the blob store. */
export const MEMORY_BYTES = 128 << 20;

export interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** Chunks that follow one another from byte `start` on, read by absolute byte range. */
class Chunks {
  list: Uint8Array[] = [];
  bytes = 0;
  constructor(public start = 0) {}
  push(chunk: Uint8Array): void {
    this.list.push(chunk);
    this.bytes += chunk.length;
  }
  /** Takes the first chunk off (the chunks then begin after it). */
  shift(): Uint8Array {
    const c = this.list.shift()!;
    this.start += c.length;
    this.bytes -= c.length;
    return c;
  }
  /** Bytes `from` to `to` (absolute, both within these chunks): a view of the chunk that holds them all, else a copy. */
  read(from: number, to: number): Uint8Array {
    let at = this.start;
    let k = 0;
    for (; k < this.list.length && at + this.list[k]!.length <= from; k++) at += this.list[k]!.length;
    const first = this.list[k];
    if (first && to <= at + first.length) return first.subarray(from - at, to - at);
    const out = new Uint8Array(to - from);
    for (; k < this.list.length && at < to; k++) {
      const c = this.list[k]!;
      const lo = Math.max(from, at);
      const hi = Math.min(to, at + c.length);
      if (lo < hi) out.set(c.subarray(lo - at, hi - at), lo - from);
      at += c.length;
    }
    return out;
  }
}

/** A window read without waiting: its bytes once read. */
interface Ahead {
  readonly start: number;
  bytes: Uint8Array | null;
}

/** The window's bytes from `start` on, then `after` (which follows the window). */
function joined(w: { start: number; bytes: Uint8Array }, start: number, after: Uint8Array): Ahead {
  const bytes = new Uint8Array(w.start + w.bytes.length - start + after.length);
  bytes.set(w.bytes.subarray(start - w.start));
  bytes.set(after, w.start + w.bytes.length - start);
  return { start, bytes };
}

export class BlobStore implements ByteStore {
  /** The newest bytes, kept in memory (at most `memoryBytes`, beside the newest chunk); those before `memory.start` are in the blob store. */
  private readonly memory = new Chunks();
  /** The parts moved to the blob store, in order: bytes 0 up to `memory.start`. */
  private parts: Blob[] = [];
  /** The parts in the blob store as one Blob (made again when a part is added). */
  private partsBlob: Blob | null = null;
  private window: { start: number; bytes: Uint8Array } | null = null;
  /** The window after it, being read without waiting (see `readAhead`). */
  private ahead: Ahead | null = null;
  private sealed = false;

  /** `memoryBytes`: how many of the newest bytes stay in memory (see `MEMORY_BYTES`). */
  constructor(
    private readonly reader: SyncReader,
    private readonly memoryBytes = MEMORY_BYTES,
  ) {}

  /** The chunk is kept in memory; the oldest chunks past the budget go to the blob store, a part (`PART_BYTES` or more) at a time. */
  append(chunk: Uint8Array): void {
    this.memory.push(chunk);
    while (this.memory.bytes > this.memoryBytes && this.memory.list.length > 1) {
      const part: Uint8Array[] = [];
      for (let n = 0; n < PART_BYTES && this.memory.list.length > 1;) {
        const c = this.memory.shift();
        part.push(c);
        n += c.length;
      }
      this.parts.push(new Blob(part as BlobPart[]));
      this.partsBlob = null;
    }
  }

  seal(): void {
    this.sealed = true;
  }

  /** The bytes in the blob store as one Blob (null: none). */
  private stored(): Blob | null {
    return this.parts.length === 0 ? null : (this.partsBlob ??= new Blob(this.parts));
  }

  read(start: number, end: number): Uint8Array {
    const inMemory = this.memory.start;
    if (start >= inMemory) return this.memory.read(start, end);
    if (end > inMemory) {
      // Across the end of the blob store: its part, then the bytes in memory.
      const out = new Uint8Array(end - start);
      out.set(this.fromBlob(start, inMemory));
      out.set(this.memory.read(inMemory, end), inMemory - start);
      return out;
    }
    return this.fromBlob(start, end);
  }

  /** Bytes `start` to `end`, all in the blob store: from the window read ahead when it has them, else a window read now. */
  private fromBlob(start: number, end: number): Uint8Array {
    const w = this.window;
    if (w && start >= w.start && end <= w.start + w.bytes.length) return w.bytes.subarray(start - w.start, end - w.start);
    const a = this.ahead;
    if (a?.bytes && end <= a.start + a.bytes.length) {
      // The window read ahead while episodes before it were judged: no wait for the blob store. An
      // episode that begins in the window before it takes its first bytes from there.
      const next = start >= a.start ? a : w && start >= w.start && w.start + w.bytes.length === a.start ? joined(w, start, a.bytes) : null;
      if (next) {
        this.window = { start: next.start, bytes: next.bytes! };
        this.ahead = null;
        this.readAhead(a.start + a.bytes.length);
        return next.bytes!.subarray(start - next.start, end - next.start);
      }
    }
    const stored = this.stored()!;
    // Bytes in the blob store never change: a read keeps a window.
    const to = Math.min(stored.size, Math.max(end, start + WINDOW_BYTES));
    const bytes = new Uint8Array(this.reader.readAsArrayBuffer(stored.slice(start, to)));
    // A window only as big as the usual one is kept (a huge episode is not held after its read).
    this.window = bytes.length <= WINDOW_BYTES ? { start, bytes } : null;
    if (this.window) this.readAhead(to);
    return bytes.subarray(0, end - start);
  }

  /**
   * Starts reading the window from `from` on without waiting (`Blob.arrayBuffer`): episodes judged in
   * file order find their bytes there, read while the ones before them were judged, instead of each
   * window holding this thread for a synchronous read of the blob store. Only bytes in the blob store
   * are read ahead; nothing when they end at `from`.
   */
  private readAhead(from: number): void {
    const stored = this.stored();
    if (!stored || from >= stored.size || (this.ahead && this.ahead.start === from)) return;
    const ahead: Ahead = { start: from, bytes: null };
    this.ahead = ahead;
    stored
      .slice(from, Math.min(stored.size, from + WINDOW_BYTES))
      .arrayBuffer()
      .then(
        (b) => void (ahead.bytes = new Uint8Array(b)),
        () => void (this.ahead === ahead && (this.ahead = null)),
      );
  }

  all(): Uint8Array {
    if (!this.sealed) throw new Error('the file is still being read');
    return this.read(0, this.memory.start + this.memory.bytes);
  }
}

class MemoryStore implements ByteStore {
  private chunks = new Chunks();
  private bytes: Uint8Array | null = null;

  append(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }

  seal(): void {
    this.bytes = concatBytes(this.chunks.list);
    this.chunks = new Chunks();
  }

  read(start: number, end: number): Uint8Array {
    return this.bytes ? this.bytes.subarray(start, end) : this.chunks.read(start, end);
  }

  all(): Uint8Array {
    if (!this.bytes) throw new Error('the file is still being read');
    return this.bytes;
  }
}

/** The parts one after the other (the part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) {
    out.set(p, k);
    k += p.length;
  }
  return out;
}

/** A Blob store in a browser worker (`FileReaderSync` is there), else bytes in memory (tests, other hosts). */
export function byteStore(): ByteStore {
  return typeof FileReaderSync === 'function' ? new BlobStore(new FileReaderSync()) : new MemoryStore();
}
