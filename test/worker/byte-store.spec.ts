import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/worker/byte-store';
import { blobStoreRangeCases, expectBytes, fileOf, MB, reader, TestBlob, useTestBlob } from './blob-store.cases';

/**
 * The Blob store (what a big file's bytes live in while its run is open, in the browser's worker)
 * against the bytes themselves: reads of any range, while bytes are appended and once sealed, from
 * its window, the window read ahead, the parts kept in memory and the blob store, give those bytes.
 * Node has Blob but no `FileReaderSync`: the Blob here is a stand-in that keeps its bytes, and the
 * synchronous reader reads them; `arrayBuffer()` (the read ahead) answers a task later, as a browser's does.
 */

useTestBlob();

describe('BlobStore', () => {
  // 30 files in the soak (test/soak/byte-store.spec.ts).
  blobStoreRangeCases(8);

  it('keeps a file within its budget in memory: no Blob is made, no read of the blob store, and callers get the bytes as they were', () => {
    const file = fileOf(40 * MB);
    const store = new BlobStore(reader);
    const [made, reads] = [TestBlob.ofBytes, reader.reads];
    for (let at = 0; at < file.length; at += 3 * MB) store.append(file.slice(at, at + 3 * MB));
    store.seal();
    expectBytes(store.read(8 * MB - 10, 8 * MB + 10), file.subarray(8 * MB - 10, 8 * MB + 10));
    expectBytes(store.read(39 * MB + 5, 39 * MB + 500), file.subarray(39 * MB + 5, 39 * MB + 500));
    expectBytes(store.all(), file);
    expect([TestBlob.ofBytes - made, reader.reads - reads]).toEqual([0, 0]);
    // A caller copies what it hands over: the store's bytes stay as they were.
    const copy = store.read(100, 200).slice();
    copy.fill(0);
    expectBytes(store.read(100, 200), file.subarray(100, 200));
  });

  it('past its budget, moves the oldest parts to the blob store and reads ranges across the boundary from both', () => {
    // Five parts of 9 MB, 36 MB in memory: the first part goes to the blob store (one Blob of bytes), the rest stay.
    const file = fileOf(45 * MB);
    const store = new BlobStore(reader, 36 * MB);
    const made = TestBlob.ofBytes;
    for (let k = 0; k < 5; k++) store.append(file.slice(k * 9 * MB, (k + 1) * 9 * MB));
    expect(TestBlob.ofBytes - made).toBe(1);
    for (const [start, end] of [
      [9 * MB - 1, 9 * MB + 10],
      [9 * MB, 9 * MB + 10],
      [9 * MB - 10, 9 * MB],
      [0, 3],
      [45 * MB - 3, 45 * MB],
    ] as const)
      expectBytes(store.read(start, end), file.subarray(start, end));
    store.seal();
    expectBytes(store.all(), file);
  });
});
