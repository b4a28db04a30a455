/**
 * A results file's bytes, kept while its run is open so each episode can be read again by byte range
 * (its text is never kept). In the browser's worker the bytes go into a Blob as they stream in: a
 * copy (a file changed or deleted on disk after it was opened does not matter) that the browser keeps
 * outside this page's process (its blob store, which may page it to disk), read back a window at a
 * time with `FileReaderSync`. Where there is no `FileReaderSync` they stay in memory.
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

/** Bytes gathered before they become one Blob part. */
const PART_BYTES = 8 << 20;
/** Bytes read at once: episodes read in file order (a search, a report) need one read per window. */
const WINDOW_BYTES = 2 << 20;
/**
 * Parts kept in memory as well after they went into the Blob store: episodes are judged a little behind
 * the reading (the judge helper's batches especially), and bytes read back from the blob store cost far
 * more than bytes still in memory. At most this many parts (32 MB) are held beside the Blob.
 */
const RECENT_PARTS = 4;

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
  /** Bytes not yet in a Blob part (the file's tail while it is read). */
  private pending = new Chunks();
  private parts: Blob[] = [];
  /** The parts so far as one Blob, for reads while the file is read (made again when a part is added). */
  private partsBlob: Blob | null = null;
  private blob: Blob | null = null;
  private window: { start: number; bytes: Uint8Array } | null = null;
  /** The last parts' bytes, still in memory (see `RECENT_PARTS`), oldest first. */
  private recent: Chunks[] = [];
  /** The window after it, being read without waiting (see `readAhead`). */
  private ahead: Ahead | null = null;

  constructor(private readonly reader: SyncReader) {}

  append(chunk: Uint8Array): void {
    this.pending.push(chunk);
    if (this.pending.bytes >= PART_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.list.length > 0) {
      this.parts.push(new Blob(this.pending.list as BlobPart[]));
      this.partsBlob = null;
      this.recent.push(this.pending);
      if (this.recent.length > RECENT_PARTS) this.recent.shift();
    }
    this.pending = new Chunks(this.pending.start + this.pending.bytes);
  }

  seal(): void {
    this.flush();
    this.blob = new Blob(this.parts);
    this.parts = [];
  }

  read(start: number, end: number): Uint8Array {
    const w = this.window;
    if (w && start >= w.start && end <= w.start + w.bytes.length) return w.bytes.subarray(start - w.start, end - w.start);
    const inMemory = this.recent[0]?.start ?? this.pending.start;
    if (start >= inMemory && end <= this.pending.start + this.pending.bytes) return this.fromMemory(start, end);
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
    // Bytes in a part never change: a read within the parts (or the sealed blob) keeps a window.
    const stored = this.blob ?? (end <= this.pending.start ? (this.partsBlob ??= new Blob(this.parts)) : null);
    if (!stored) return this.readWhileAppending(start, end);
    const to = Math.min(stored.size, Math.max(end, start + WINDOW_BYTES));
    const bytes = new Uint8Array(this.reader.readAsArrayBuffer(stored.slice(start, to)));
    // A window only as big as the usual one is kept (a huge episode is not held after its read).
    this.window = bytes.length <= WINDOW_BYTES ? { start, bytes } : null;
    if (this.window) this.readAhead(to);
    return bytes.subarray(0, end - start);
  }

  /** Bytes `start` to `end`, all within the recent parts and the bytes not yet in a part. */
  private fromMemory(start: number, end: number): Uint8Array {
    const from: Chunks[] = [];
    for (const c of this.recent) if (c.start + c.bytes > start && c.start < end) from.push(c);
    if (this.pending.start < end && this.pending.start + this.pending.bytes > start) from.push(this.pending);
    if (from.length === 1) return from[0]!.read(start, end);
    const out = new Uint8Array(end - start);
    for (const c of from) {
      const lo = Math.max(start, c.start);
      const hi = Math.min(end, c.start + c.bytes);
      out.set(c.read(lo, hi), lo - start);
    }
    return out;
  }

  /**
   * Starts reading the window from `from` on without waiting (`Blob.arrayBuffer`): episodes judged in
   * file order find their bytes there, read while the ones before them were judged, instead of each
   * window holding this thread for a synchronous read of the blob store. Only stored bytes are read
   * ahead (the sealed blob, or the parts while the file is read); nothing when they end at `from`.
   */
  private readAhead(from: number): void {
    const stored = this.blob ?? (this.parts.length > 0 ? (this.partsBlob ??= new Blob(this.parts)) : null);
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

  /** A read before `seal` that reaches past the parts: from them and the bytes not yet in a part. */
  private readWhileAppending(start: number, end: number): Uint8Array {
    const tail = this.pending.start;
    if (start >= tail) return this.pending.read(start, end);
    this.partsBlob ??= new Blob(this.parts);
    const head = new Uint8Array(this.reader.readAsArrayBuffer(this.partsBlob.slice(start, tail)));
    const out = new Uint8Array(end - start);
    out.set(head);
    out.set(this.pending.read(tail, end), head.length);
    return out;
  }

  all(): Uint8Array {
    if (!this.blob) throw new Error('the file is still being read');
    return new Uint8Array(this.reader.readAsArrayBuffer(this.blob));
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
