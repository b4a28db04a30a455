/**
 * The Blob store (what a big file's bytes live in while its run is open, in the browser's worker)
 * against the bytes themselves: reads of any range, while bytes are appended and once sealed, from
 * its window, the window read ahead, the parts kept in memory and the blob store, give those bytes.
 * Node has Blob but no `FileReaderSync`: the Blob here is a stand-in that keeps its bytes, and the
 * synchronous reader reads them; `arrayBuffer()` (the read ahead) answers a task later, as a browser's does.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BlobStore, MEMORY_BYTES, type SyncReader } from '../../src/worker/byte-store';

export class TestBlob {
  /** Blobs made of bytes (not of other Blobs): what costs the page's thread a copy to the browser's process. */
  static ofBytes = 0;
  readonly bytes: Uint8Array;
  constructor(parts: readonly (Uint8Array | TestBlob)[] = []) {
    if (parts.some((p) => !(p instanceof TestBlob))) TestBlob.ofBytes++;
    const all = parts.map((p) => (p instanceof TestBlob ? p.bytes : p));
    this.bytes = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of all) {
      this.bytes.set(p, at);
      at += p.length;
    }
  }
  get size(): number {
    return this.bytes.length;
  }
  slice(start = 0, end = this.bytes.length): TestBlob {
    return new TestBlob([this.bytes.slice(start, end)]);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return new Promise((ok) => setTimeout(() => ok(this.bytes.slice().buffer), 0));
  }
}

export const reader: SyncReader & { reads: number } = {
  reads: 0,
  readAsArrayBuffer(blob: Blob) {
    this.reads++;
    return (blob as unknown as TestBlob).bytes.slice().buffer;
  },
};

const realBlob = globalThis.Blob;
/** Blob is the stand-in while the calling file's specs run. */
export function useTestBlob(): void {
  beforeAll(() => void (globalThis.Blob = TestBlob as unknown as typeof Blob));
  afterAll(() => void (globalThis.Blob = realBlob));
}

export const MB = 1 << 20;
const tick = (): Promise<void> => new Promise((ok) => setTimeout(ok, 0));

/** A file of `n` bytes, each byte telling its position apart from its neighbours. */
export function fileOf(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + (i >> 8)) & 0xff;
  return b;
}

/** Where `got` first differs from `want` (−1: the same bytes), so a failure names a byte, not two megabytes of them. */
function firstDifference(got: Uint8Array, want: Uint8Array): number {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) return i;
  return -1;
}

export const expectBytes = (got: Uint8Array, want: Uint8Array): void => expect(firstDifference(got, want)).toBe(-1);

/**
 * Reads of any range while a file is appended and once sealed, against the bytes (fast-check, seeded, `numRuns`
 * files): the gate (byte-store.spec.ts) runs 8, the soak (test/soak/byte-store.spec.ts) 30; the same assertions.
 */
export function blobStoreRangeCases(numRuns: number): void {
  it(`gives the bytes of any range, while the file is appended and once sealed (seeded, ${numRuns} cases)`, async () => {
    // Chunks of up to 3 MB (a part is 8 MB, the window 2 MB), reads of up to 5 MB anywhere in what is in,
    // with 16 or 24 MB kept in memory (the rest in the blob store) or the app's budget (all in memory).
    const plan = fc.record({
      memory: fc.constantFrom(16 << 20, 24 << 20, MEMORY_BYTES),
      chunks: fc.array(fc.integer({ min: 1, max: 3 * MB }), { minLength: 1, maxLength: 12 }),
      reads: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 5 * MB }), fc.boolean()), { maxLength: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(plan, async ({ memory, chunks, reads }) => {
        const total = chunks.reduce((a, b) => a + b, 0);
        const file = fileOf(total);
        const store = new BlobStore(reader, memory);
        let appended = 0;
        let r = 0;
        const check = async (): Promise<void> => {
          const [where, length, wait] = reads[r++ % Math.max(1, reads.length)] ?? [0, 0, false];
          const start = Math.floor(where * appended);
          const end = Math.min(appended, start + length);
          if (wait) await tick();
          expectBytes(store.read(start, end), file.subarray(start, end));
        };
        for (const n of chunks) {
          // The stream's chunk is its own buffer (the store keeps it, as it keeps a browser's).
          store.append(file.slice(appended, appended + n));
          appended += n;
          await check();
        }
        store.seal();
        for (let k = 0; k < reads.length; k++) await check();
        // Episodes read in file order, a window at a time (the judge helper's batches, a search).
        for (let at = 0; at < total; at += 300_000) {
          expectBytes(store.read(at, Math.min(total, at + 250_000)), file.subarray(at, Math.min(total, at + 250_000)));
          if (at % 900_000 === 0) await tick();
        }
        expectBytes(store.all(), file);
      }),
      { seed: 20261204, numRuns },
    );
  }, 120_000);
}
