import { describe } from 'vitest';
import { blobStoreRangeCases, useTestBlob } from '../worker/blob-store.cases';

// Soak of test/worker/byte-store.spec.ts: the range property on 30 seeded files (the gate has 8).
useTestBlob();
describe('BlobStore (soak)', () => {
  blobStoreRangeCases(30);
});
