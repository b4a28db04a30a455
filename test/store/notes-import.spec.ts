import { describe, expect, it } from 'vitest';
import { exportNotes, NOTES_LIMITS, parseNotesExport, type EpisodeNotes } from '../../src/core/contract';
import { NOTES_CHUNK } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes, type NotesPort } from '../../src/store/notes-port';
import { parseNotesFile } from '../../src/worker/notes-import';
import { fakePort, sent } from '../support/fake-port';

const fp = (i: number): string => i.toString(16).padStart(64, '0');
const record = (i: number, note: string): EpisodeNotes => ({
  fingerprint: fp(i),
  label: null,
  note,
  steps: {},
  file: 'run.json',
  index: i,
  taskId: i,
  updatedAt: '',
});
const exportOf = (n: number, note: (i: number) => string): string =>
  exportNotes(
    'run.json',
    Array.from({ length: n }, (_, i) => record(i, note(i))),
  );

/** A store whose port answers `parse-notes` as the worker does (parseNotesFile), and how many writes the storage took. */
function withWorker(storage: NotesPort = memoryNotes()) {
  const writes: number[] = [];
  const counted: NotesPort = { ...storage, putMany: (ns) => (writes.push(ns.length), storage.putMany(ns)) };
  const { port, calls } = fakePort((m) => {
    if (m.type === 'parse-notes') void parseNotesFile(m.file).then((r) => store.getState().receive({ type: 'parse-notes', id: m.id, ...r }));
  });
  const store = createAppStore(port, undefined, counted);
  return { store, calls, writes };
}

const file = (name: string, text: string): Blob & { name: string } => Object.assign(new Blob([text], { type: 'application/json' }), { name });

describe('a bounded notes import', () => {
  it('a file past the size limit is called too big and is not read or sent to the worker', async () => {
    const { store, calls } = withWorker();
    const huge = { name: 'huge.json', size: 600 * 1024 * 1024, text: () => Promise.reject(new Error('read')) } as unknown as Blob & { name: string };
    await store.getState().importNotesFile(huge);
    expect(store.getState().notesImport).toEqual({
      ok: false,
      file: 'huge.json',
      error: 'this file is too big to be a notes export: 600 MB, and a notes export may be at most 64 MB',
    });
    expect(sent(calls, 'parse-notes')).toEqual([]);
  });

  it('parsed in the worker (parse-notes), merged a chunk at a time: 5,000 conflicting records, every conflict reported, the stored notes kept', async () => {
    const { store, calls, writes } = withWorker();
    await store.getState().importNotesFile(
      file(
        'first.json',
        exportOf(5000, (i) => `mine ${i}`),
      ),
    );
    expect(store.getState().notesImport).toMatchObject({ ok: true, added: 5000, conflicts: [] });
    // Stored in small writes, chunk by chunk (NOTES_CHUNK records each).
    expect(writes.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(Math.max(...writes)).toBeLessThanOrEqual(100);
    expect(writes.length).toBeGreaterThanOrEqual(Math.ceil(5000 / NOTES_CHUNK));
    await store.getState().importNotesFile(
      file(
        'second.json',
        exportOf(5000, (i) => `theirs ${i}`),
      ),
    );
    const r = store.getState().notesImport;
    expect(r).toMatchObject({ ok: true, file: 'second.json', added: 0, updated: 0, unchanged: 5000 });
    expect(r?.ok && r.conflicts.length).toBe(5000);
    expect(r?.ok && r.conflicts[4999]).toMatchObject({ field: 'note', kept: 'mine 4999', imported: 'theirs 4999' });
    expect(store.getState().notes.get(fp(17))?.note).toBe('mine 17');
    expect(sent(calls, 'parse-notes').map((m) => m.file instanceof Blob)).toEqual([true, true]);
    expect(store.getState().notesImporting).toBeNull();
  });

  it('past the limits: too many records, a note too long; a clear sentence and nothing imported', async () => {
    const tooMany = `{"format": "tau-inspect-notes", "version": 1, "episodes": [${Array.from({ length: NOTES_LIMITS.records + 1 }, () => '{}').join(',')}]}`;
    expect(parseNotesExport(tooMany)).toEqual({
      ok: false,
      error: 'this notes export holds 200,001 records, and one import may hold at most 200,000: split it into smaller files',
    });
    const { store } = withWorker();
    await store.getState().importNotesFile(
      file(
        'long.json',
        exportOf(3, (i) => (i === 2 ? 'é'.repeat(40_000) : 'short')),
      ),
    );
    expect(store.getState().notesImport).toEqual({
      ok: false,
      file: 'long.json',
      error: 'this notes export has a note too long to import: episodes[2].note is 80,000 bytes long, and a note may be at most 65,536 bytes',
    });
    expect(store.getState().notes.size).toBe(0);
  });
});
