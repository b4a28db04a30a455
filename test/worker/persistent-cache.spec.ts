import { describe, expect, it } from 'vitest';
import type { Located } from '../../src/worker/data-locator';
import { PersistentVersions, type SnapshotStorage } from '../../src/worker/persistent-cache';

/** A promise and its resolver. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((ok, no) => ((resolve = ok), (reject = no)));
  return { promise, resolve, reject };
}

/** A kept-snapshot store whose answers the spec gives: its reads are recorded and left pending. */
function storage(keys: Promise<IDBValidKey[]>): SnapshotStorage & { reads: string[]; answer: Map<string, (v: unknown) => void> } {
  const reads: string[] = [];
  const answer = new Map<string, (v: unknown) => void>();
  return {
    reads,
    answer,
    keys: () => keys,
    get: (key) => {
      reads.push(key);
      const d = deferred<unknown>();
      answer.set(key, d.resolve);
      return d.promise;
    },
    set: async () => undefined,
    del: async () => undefined,
  };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
const notLocated = new Promise<Located | null>(() => undefined);
const AIRLINE = 'v1|airline|14bf0ef|aaaa';
const RETAIL = 'v1|retail|14bf0ef|bbbb';

/** Whether `p` has settled after a tick, and with what. */
async function settled<T>(p: Promise<T>): Promise<{ value: T } | 'pending'> {
  let out: { value: T } | 'pending' = 'pending';
  void p.then((value) => (out = { value }));
  await tick();
  return out;
}

describe('PersistentVersions.prefetch: the DB kept from an earlier visit is read as the file starts', () => {
  it('with the kept keys listed as the worker started, the read starts at once (no listing in between) and is said to be kept', async () => {
    const s = storage(Promise.resolve([RETAIL, AIRLINE]));
    const p = new PersistentVersions(s);
    await tick();
    const ahead = p.prefetch(notLocated, 'airline', '14bf0ef');
    // Synchronously: before anything else this thread does (parsing the file's first episodes).
    expect(s.reads).toEqual([AIRLINE]);
    expect(await settled(ahead.kept)).toEqual({ value: true });
    // Ready while the data is still being located (the patience given), not once it is.
    expect(await Promise.race([ahead.ready.then(() => 'ready'), new Promise((r) => setTimeout(() => r('late'), 1000))])).toBe('ready');
  });

  it('no snapshot kept for the domain: nothing read, and said so at once (reading need not wait)', async () => {
    const s = storage(Promise.resolve([RETAIL]));
    const p = new PersistentVersions(s);
    await tick();
    const ahead = p.prefetch(notLocated, 'airline', '14bf0ef');
    expect(await settled(ahead.kept)).toEqual({ value: false });
    expect(s.reads).toEqual([]);
  });

  it('the guessed commit not kept: the domain’s one kept snapshot is read (a commit guessed from the first 64 KB may be wrong); of two, neither', async () => {
    const s = storage(Promise.resolve([RETAIL]));
    const p = new PersistentVersions(s);
    await tick();
    const other = p.prefetch(notLocated, 'retail', '7362a17');
    expect(await settled(other.kept)).toEqual({ value: true });
    expect(s.reads).toEqual([RETAIL]);
    const two = storage(Promise.resolve([RETAIL, 'v1|retail|0000000|cccc']));
    const q = new PersistentVersions(two);
    await tick();
    expect(await settled(q.prefetch(notLocated, 'retail', '7362a17').kept)).toEqual({ value: false });
    expect(two.reads).toEqual([]);
    // The guessed commit's when it is kept.
    expect(await settled(q.prefetch(notLocated, 'retail', '0000000').kept)).toEqual({ value: true });
    expect(two.reads).toEqual(['v1|retail|0000000|cccc']);
  });

  it('a file that starts before the keys are listed: its read starts once they are', async () => {
    const keys = deferred<IDBValidKey[]>();
    const s = storage(keys.promise);
    const p = new PersistentVersions(s);
    const ahead = p.prefetch(notLocated, 'airline', '14bf0ef');
    expect(await settled(ahead.kept)).toBe('pending');
    expect(s.reads).toEqual([]);
    keys.resolve([AIRLINE]);
    expect(await settled(ahead.kept)).toEqual({ value: true });
    expect(s.reads).toEqual([AIRLINE]);
  });

  it('where there is no IndexedDB (the listing fails) nothing is kept, and nothing throws', async () => {
    const s = storage(Promise.reject(new Error('indexedDB is not defined')));
    const p = new PersistentVersions(s);
    const ahead = p.prefetch(notLocated, 'airline', '14bf0ef');
    expect(await settled(ahead.kept)).toEqual({ value: false });
    expect(s.reads).toEqual([]);
  });

  it('the same file opened again while its kept DB is still being read: one read, and this file is told it is kept too', async () => {
    const s = storage(Promise.resolve([AIRLINE]));
    const p = new PersistentVersions(s);
    await tick();
    p.prefetch(notLocated, 'airline', '14bf0ef');
    const again = p.prefetch(notLocated, 'airline', '14bf0ef');
    expect(await settled(again.kept)).toEqual({ value: true });
    expect(s.reads).toEqual([AIRLINE]);
  });
});
