/**
 * A results file's bytes, kept while its run is open so each episode can be read again by byte range
 * (its text is never kept). In the browser's worker the bytes go into a Blob as they stream in: a
 * copy (a file changed or deleted on disk after it was opened does not matter) that the browser keeps
 * outside this page's process (its blob store, which may page it to disk), read back a window at a
 * time with `FileReaderSync`. Where there is no `FileReaderSync` they stay in memory.
 */
export interface ByteStore {
  append(chunk: Uint8Array): void;
  /** No more bytes come: reads may start. */
  seal(): void;
  /** Bytes `start` to `end` (exclusive). */
  read(start: number, end: number): Uint8Array;
  /** Every byte, for a file read from its whole text (the careful reader). */
  all(): Uint8Array;
}

/** Bytes gathered before they become one Blob part. */
const PART_BYTES = 8 << 20;
/** Bytes read at once: episodes read in file order (a search, a report) need one read per window. */
const WINDOW_BYTES = 1 << 20;

interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

class BlobStore implements ByteStore {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private parts: Blob[] = [];
  private blob: Blob | null = null;
  private window: { start: number; bytes: Uint8Array } | null = null;

  constructor(private readonly reader: SyncReader) {}

  append(chunk: Uint8Array): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= PART_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length > 0) this.parts.push(new Blob(this.pending as BlobPart[]));
    this.pending = [];
    this.pendingBytes = 0;
  }

  seal(): void {
    this.flush();
    this.blob = new Blob(this.parts);
    this.parts = [];
  }

  private sealed(): Blob {
    if (!this.blob) throw new Error('the file is still being read');
    return this.blob;
  }

  read(start: number, end: number): Uint8Array {
    const w = this.window;
    if (w && start >= w.start && end <= w.start + w.bytes.length) return w.bytes.subarray(start - w.start, end - w.start);
    const blob = this.sealed();
    const to = Math.min(blob.size, Math.max(end, start + WINDOW_BYTES));
    const bytes = new Uint8Array(this.reader.readAsArrayBuffer(blob.slice(start, to)));
    // A window only as big as the usual one is kept (a huge episode is not held after its read).
    this.window = bytes.length <= WINDOW_BYTES ? { start, bytes } : null;
    return bytes.subarray(0, end - start);
  }

  all(): Uint8Array {
    return new Uint8Array(this.reader.readAsArrayBuffer(this.sealed()));
  }
}

class MemoryStore implements ByteStore {
  private chunks: Uint8Array[] = [];
  private bytes: Uint8Array | null = null;

  append(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }

  seal(): void {
    this.bytes = concatBytes(this.chunks);
    this.chunks = [];
  }

  read(start: number, end: number): Uint8Array {
    return this.all().subarray(start, end);
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
