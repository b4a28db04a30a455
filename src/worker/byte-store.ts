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
  /** Bytes `start` to `end` (exclusive), also while bytes are still appended (from those appended so far). */
  read(start: number, end: number): Uint8Array;
  /** Every byte, for a file read from its whole text (the careful reader); once sealed. */
  all(): Uint8Array;
}

/** Bytes gathered before they become one Blob part. */
const PART_BYTES = 8 << 20;
/** Bytes read at once: episodes read in file order (a search, a report) need one read per window. */
const WINDOW_BYTES = 1 << 20;

interface SyncReader {
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
  /** Bytes `from` to `to` (absolute, both within these chunks). */
  read(from: number, to: number): Uint8Array {
    const out = new Uint8Array(to - from);
    let at = this.start;
    for (const c of this.list) {
      const lo = Math.max(from, at);
      const hi = Math.min(to, at + c.length);
      if (lo < hi) out.set(c.subarray(lo - at, hi - at), lo - from);
      at += c.length;
      if (at >= to) break;
    }
    return out;
  }
}

class BlobStore implements ByteStore {
  /** Bytes not yet in a Blob part (the file's tail while it is read). */
  private pending = new Chunks();
  private parts: Blob[] = [];
  /** The parts so far as one Blob, for reads while the file is read (made again when a part is added). */
  private partsBlob: Blob | null = null;
  private blob: Blob | null = null;
  private window: { start: number; bytes: Uint8Array } | null = null;

  constructor(private readonly reader: SyncReader) {}

  append(chunk: Uint8Array): void {
    this.pending.push(chunk);
    if (this.pending.bytes >= PART_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.list.length > 0) {
      this.parts.push(new Blob(this.pending.list as BlobPart[]));
      this.partsBlob = null;
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
    if (!this.blob) return this.readWhileAppending(start, end);
    const blob = this.blob;
    const to = Math.min(blob.size, Math.max(end, start + WINDOW_BYTES));
    const bytes = new Uint8Array(this.reader.readAsArrayBuffer(blob.slice(start, to)));
    // A window only as big as the usual one is kept (a huge episode is not held after its read).
    this.window = bytes.length <= WINDOW_BYTES ? { start, bytes } : null;
    return bytes.subarray(0, end - start);
  }

  /** A read before `seal`: from the parts stored so far and the bytes not yet in a part (no window kept: the parts change). */
  private readWhileAppending(start: number, end: number): Uint8Array {
    const tail = this.pending.start;
    if (start >= tail) return this.pending.read(start, end);
    this.partsBlob ??= new Blob(this.parts);
    const head = new Uint8Array(this.reader.readAsArrayBuffer(this.partsBlob.slice(start, Math.min(end, tail))));
    if (end <= tail) return head;
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
