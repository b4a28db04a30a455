import { createStore, clear, delMany, entries, setMany, set as idbSet, type UseStore } from 'idb-keyval';
import type { EpisodeNotes } from '../core/contract';

/** Where notes are kept: IndexedDB in the app, memory in tests. Every write resolves once it is stored. */
export interface NotesPort {
  all(): Promise<EpisodeNotes[]>;
  put(n: EpisodeNotes): Promise<void>;
  putMany(ns: readonly EpisodeNotes[]): Promise<void>;
  remove(fingerprints: readonly string[]): Promise<void>;
}

export function memoryNotes(): NotesPort & { clearAll(): void } {
  const m = new Map<string, EpisodeNotes>();
  return {
    all: () => Promise.resolve([...m.values()]),
    put: (n) => (m.set(n.fingerprint, n), Promise.resolve()),
    putMany: (ns) => (ns.forEach((n) => m.set(n.fingerprint, n)), Promise.resolve()),
    remove: (fps) => (fps.forEach((f) => m.delete(f)), Promise.resolve()),
    clearAll: () => m.clear(),
  };
}

/**
 * Notes in this browser's IndexedDB (database `tau-inspect-notes`, one record per episode
 * fingerprint): they survive reloads and browser restarts and never leave the machine.
 */
export function indexedDbNotes(): NotesPort & { clearAll(): Promise<void> } {
  let db: UseStore | null = null;
  const store = (): UseStore => (db ??= createStore('tau-inspect-notes', 'notes'));
  return {
    all: async () => (await entries<string, EpisodeNotes>(store())).map(([, v]) => v),
    put: (n) => idbSet(n.fingerprint, n, store()),
    putMany: (ns) =>
      setMany(
        ns.map((n) => [n.fingerprint, n]),
        store(),
      ),
    remove: (fps) => delMany([...fps], store()),
    clearAll: () => clear(store()),
  };
}
