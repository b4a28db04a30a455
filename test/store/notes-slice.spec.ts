import { describe, expect, it } from 'vitest';
import type { FingerprintedHeader, EpisodeNotes } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes, type NotesPort } from '../../src/store/notes-port';
import { filterByLabel, labelCounts } from '../../src/store/notes-slice';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';

const { port } = fakePort();
const header = (index: number): FingerprintedHeader => ({
  index,
  taskId: index * 10,
  trial: 0,
  recordedReward: 0,
  turns: 3,
  problem: null,
  extra: {},
  fingerprint: String(index + 1)
    .repeat(64)
    .slice(0, 64),
});

function opened(storage: NotesPort) {
  const store = createAppStore(port, undefined, storage);
  store.getState().openSample('x');
  store.getState().receive(says.opened(1, 'run <b>.json', [header(0), header(1), header(2)]));
  return store;
}

describe('notes slice', () => {
  it('says saved only after the storage confirmed the write', async () => {
    let release: () => void = () => {};
    const mem = memoryNotes();
    const slow: NotesPort = { ...mem, put: (n) => new Promise<void>((r) => (release = () => void mem.put(n).then(r))) };
    const store = opened(slow);
    const done = store.getState().editNotes(1, { note: 'why?' });
    expect(store.getState().noteSave?.state).toBe('saving');
    release();
    await done;
    expect(store.getState().noteSave?.state).toBe('saved');
    expect((await mem.all())[0]).toMatchObject({ note: 'why?', index: 1, taskId: 10, file: 'run <b>.json' });
  });

  it('reloads notes from storage into a new store (a reload)', async () => {
    const mem = memoryNotes();
    const a = opened(mem);
    await a.getState().editNotes(2, { label: 'agent error', step: { index: 3, text: 'wrong id' } });
    const b = opened(mem);
    await b.getState().loadNotes();
    const n = b.getState().notes.get(header(2).fingerprint)!;
    expect(n).toMatchObject({ label: 'agent error', steps: { '3': 'wrong id' } });
    expect(labelCounts(b.getState().runs.a.headers, b.getState().notes)).toEqual(new Map([['agent error', 1]]));
    expect(filterByLabel([0, 1, 2], b.getState().runs.a.headers, b.getState().notes, 'agent error')).toEqual([2]);
    expect(filterByLabel([0, 1, 2], b.getState().runs.a.headers, b.getState().notes, 'unlabelled')).toEqual([0, 1]);
  });

  it('export → clear → import gives the same notes back; a second import shows conflicts and keeps mine', async () => {
    const mem = memoryNotes();
    const store = opened(mem);
    await store.getState().editNotes(0, { label: 'task or annotation bug', note: '<script>x</script>' });
    await store.getState().editNotes(1, { step: { index: 0, text: 'here' } });
    const before = [...store.getState().notes.values()];
    const text = store.getState().exportRunNotes();
    expect(await store.getState().clearRunNotes()).toBe(2);
    expect(store.getState().notes.size).toBe(0);
    await store.getState().importNotes('n.json', text);
    expect(store.getState().notesImport).toMatchObject({ ok: true, added: 2, conflicts: [] });
    const strip = (ns: EpisodeNotes[]) => ns.map(({ updatedAt: _u, ...n }) => n).sort((x, y) => x.fingerprint.localeCompare(y.fingerprint));
    expect(strip([...store.getState().notes.values()])).toEqual(strip(before));
    expect(strip(await mem.all())).toEqual(strip(before));
    await store.getState().editNotes(0, { note: 'changed' });
    await store.getState().importNotes('n.json', text);
    const r = store.getState().notesImport;
    expect(r?.ok && r.conflicts.map((c) => [c.field, c.kept, c.imported])).toEqual([['note', 'changed', '<script>x</script>']]);
    expect(store.getState().notes.get(header(0).fingerprint)!.note).toBe('changed');
  });

  it('each import conflict is settled on its own: keep mine, take theirs, keep both (not for a label); the choice is stored', async () => {
    const mem = memoryNotes();
    const store = opened(mem);
    await store.getState().editNotes(0, { label: 'agent error', note: 'theirs', step: { index: 2, text: 'step theirs' } });
    await store.getState().editNotes(1, { note: 'other theirs' });
    const text = store.getState().exportRunNotes();
    await store.getState().editNotes(0, { label: 'task or annotation bug', note: 'mine', step: { index: 2, text: 'step mine' } });
    await store.getState().editNotes(1, { note: 'other mine' });
    await store.getState().importNotes('n.json', text);
    const r = store.getState().notesImport;
    if (!r?.ok) throw new Error('import failed');
    const at = (fp: string, field: string): number => r.conflicts.findIndex((c) => c.fingerprint === fp && c.field === field);
    const [fp0, fp1] = [header(0).fingerprint, header(1).fingerprint];
    expect(r.conflicts.map((c) => c.field).sort()).toEqual(['label', 'note', 'note', 'step 2']);
    expect(r.resolved.size).toBe(0);
    await store.getState().resolveImportConflict(at(fp0, 'label'), 'both');
    const afterBoth = store.getState().notesImport;
    expect(afterBoth?.ok && afterBoth.resolved.size).toBe(0);
    await store.getState().resolveImportConflict(at(fp0, 'label'), 'theirs');
    await store.getState().resolveImportConflict(at(fp0, 'note'), 'mine');
    await store.getState().resolveImportConflict(at(fp0, 'step 2'), 'both');
    await store.getState().resolveImportConflict(at(fp1, 'note'), 'theirs');
    const n0 = store.getState().notes.get(fp0)!;
    expect([n0.label, n0.note, n0.steps['2']]).toEqual(['agent error', 'mine', 'step mine\n\nstep theirs']);
    expect(store.getState().notes.get(fp1)!.note).toBe('other theirs');
    const stored = new Map((await mem.all()).map((n) => [n.fingerprint, n]));
    expect([stored.get(fp0)!.label, stored.get(fp0)!.steps['2'], stored.get(fp1)!.note]).toEqual(['agent error', 'step mine\n\nstep theirs', 'other theirs']);
    const done = store.getState().notesImport;
    expect(done?.ok && [...done.resolved.values()].sort()).toEqual(['both', 'mine', 'theirs', 'theirs']);
    // A settled conflict is not settled again.
    await store.getState().resolveImportConflict(at(fp1, 'note'), 'mine');
    expect(store.getState().notes.get(fp1)!.note).toBe('other theirs');
  });

  it('an import of something else says so and changes nothing', async () => {
    const mem = memoryNotes();
    const store = opened(mem);
    await store.getState().editNotes(0, { note: 'keep' });
    await store.getState().importNotes('results.json', '[{"task_id": 1, "traj": []}]');
    expect(store.getState().notesImport).toMatchObject({ ok: false, error: expect.stringMatching(/not a tau-inspect notes export/) });
    expect([...(await mem.all())].map((n) => n.note)).toEqual(['keep']);
  });
});
