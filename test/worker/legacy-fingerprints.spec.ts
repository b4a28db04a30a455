/**
 * Notes kept under a fingerprint of the old format, in the app (issue #35 class 4): once every row of a τ² run is
 * keyed, the worker says which rows' fingerprints changed when fingerprints began to keep JSON's types, and the
 * store shows a note kept under the old one on the row that alone had it. Where two rows had it (Infinity and
 * "Infinity"), it is attached by it to neither, and the page says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Text, tau2Headers, tau2LegacyFingerprints, type EpisodeNotes, type Tau2Run } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes } from '../../src/store/notes-port';
import { notesOf } from '../../src/store/notes-slice';
import { DataLocator } from '../../src/worker/data-locator';
import { Tau2Data } from '../../src/worker/tau2/data';
import { Tau2RunHandle } from '../../src/worker/tau2/run';
import { fakePort } from '../support/fake-port';
import { capturePosts, postsOf, tick } from '../support/worker-says';

const SAMPLE = join(import.meta.dirname, '../../sample-runs/runs/tau2-mock-sample.json');

interface Sim {
  messages: { role: string; tool_calls?: { arguments: Record<string, unknown> }[] | null }[];
}

/** The sample with simulation 1's first call given `amount: Infinity` (a number); `twin`: simulation 2 made simulation 1 with the string "Infinity". */
function withInfinity(twin: boolean): Tau2Run {
  const run = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { simulations: Sim[] };
  const call = (s: Sim) => s.messages.find((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0)!.tool_calls![0]!;
  call(run.simulations[1]!).arguments.amount = '__INF__';
  if (twin) {
    run.simulations[2] = JSON.parse(JSON.stringify(run.simulations[1]));
    call(run.simulations[2]!).arguments.amount = 'Infinity';
  }
  return readTau2Text(JSON.stringify(run).replace('"__INF__"', 'Infinity'))!;
}

/** The sample with simulation 1's first call given `amount: [Infinity, 1.0]`; `twin`: simulation 2 made simulation 1 with `[Infinity, 1]`. */
function withFloat(twin: boolean): Tau2Run {
  const run = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { simulations: Sim[] };
  const call = (s: Sim) => s.messages.find((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0)!.tool_calls![0]!;
  call(run.simulations[1]!).arguments.amount = '__FLOAT__';
  if (twin) {
    run.simulations[2] = JSON.parse(JSON.stringify(run.simulations[1]));
    call(run.simulations[2]!).arguments.amount = '__INT__';
  }
  return readTau2Text(JSON.stringify(run).replace('"__FLOAT__"', '[Infinity, 1.0]').replace('"__INT__"', '[Infinity, 1]'))!;
}

const posted = capturePosts();

async function openAll(tau2: Tau2Run): Promise<FromWorker[]> {
  posted.length = 0;
  const run = new Tau2RunHandle('a', 1, tau2, true, new Tau2Data(new DataLocator()));
  await run.open('run.json');
  for (let i = 0; i < 2000 && postsOf(posted, 'legacy-fingerprints').length === 0; i++) await tick();
  run.close();
  return [...posted];
}

const kept = (fingerprint: string): EpisodeNotes => ({
  fingerprint,
  label: 'agent error',
  note: 'made before fingerprints kept types',
  steps: {},
  file: 'run.json',
  index: 1,
  taskId: null,
  updatedAt: 'then',
});

/** The store after the run opened and every message of the worker arrived, with `notes` kept in this browser. */
async function storeWith(ms: readonly FromWorker[], notes: readonly EpisodeNotes[]) {
  const mem = memoryNotes();
  for (const n of notes) await mem.put(n);
  const { port } = fakePort();
  const store = createAppStore(port, undefined, mem);
  await store.getState().loadNotes();
  store.getState().openSample('tau2-mock-sample');
  const pendingRun = store.getState().pending.a!.run;
  for (const m of ms) if ('run' in m) store.getState().receive({ ...m, run: pendingRun } as FromWorker);
  return () => store.getState();
}

describe('a note kept under an old-format fingerprint (app)', () => {
  it('shows on the one simulation that had it', async () => {
    const tau2 = withInfinity(false);
    const old = tau2LegacyFingerprints(tau2, 1).at(-1)!;
    expect(old).not.toBe(tau2Headers(tau2)[1]!.fingerprint);
    const ms = await openAll(tau2);
    expect(postsOf(ms, 'legacy-fingerprints')).toEqual([{ type: 'legacy-fingerprints', run: 1, indices: [1], fingerprints: [old], ambiguous: [] }]);
    const s = await storeWith(ms, [kept(old)]);
    expect(s().runs.a.headers.map((h) => notesOf(s(), h)?.note ?? null)).toEqual(tau2.simulations.map((_, i) => (i === 1 ? kept(old).note : null)));
    // Exported under today's fingerprint.
    const exported = JSON.parse(s().exportRunNotes()) as { episodes: EpisodeNotes[] };
    expect(exported.episodes.map((n) => n.fingerprint)).toEqual([tau2Headers(tau2)[1]!.fingerprint]);
    // An edit carries it over to today's fingerprint.
    await s().editNotes(1, { note: 'edited' });
    expect(s().notes.get(tau2Headers(tau2)[1]!.fingerprint)?.label).toBe('agent error');
    // Cleared, it is gone under both keys: the old one does not show again.
    await s().editNotes(1, { note: '', label: null });
    expect(notesOf(s(), s().runs.a.headers[1])).toBeNull();
    expect(s().notes.has(old)).toBe(false);
  });

  it('two simulations had it (Infinity and "Infinity"): not on the number’s, said in a notice', async () => {
    const tau2 = withInfinity(true);
    const old = tau2LegacyFingerprints(tau2, 1).at(-1)!;
    // The string's simulation has it as today's fingerprint.
    expect(tau2Headers(tau2)[2]!.fingerprint).toBe(old);
    const ms = await openAll(tau2);
    expect(postsOf(ms, 'legacy-fingerprints')).toEqual([
      { type: 'legacy-fingerprints', run: 1, indices: [], fingerprints: [], ambiguous: [{ fingerprint: old, rows: [1, 2] }] },
    ]);
    const s = await storeWith(ms, [kept(old)]);
    expect(notesOf(s(), s().runs.a.headers[1])).toBeNull();
    expect(notesOf(s(), s().runs.a.headers[2])?.note).toBe(kept(old).note);
    expect(s().notices.at(-1)).toMatchObject({ tone: 'info' });
    expect(s().notices.at(-1)!.text).toContain("1 note made before fingerprints kept JSON's types could be on any of several rows of this run (#1 and #2)");
  });

  it('a simulation with both Infinity and 1.0 had two old fingerprints (formats 1 and 2): a note under either shows on it', async () => {
    const tau2 = withFloat(false);
    const [f2, f1] = tau2LegacyFingerprints(tau2, 1);
    expect(f1).toBeDefined();
    const ms = await openAll(tau2);
    expect(postsOf(ms, 'legacy-fingerprints')).toEqual([{ type: 'legacy-fingerprints', run: 1, indices: [1, 1], fingerprints: [f2, f1], ambiguous: [] }]);
    for (const old of [f1!, f2!]) {
      const s = await storeWith(ms, [kept(old)]);
      expect(s().runs.a.headers.map((h) => notesOf(s(), h)?.note ?? null)).toEqual(tau2.simulations.map((_, i) => (i === 1 ? kept(old).note : null)));
      // Cleared, it is gone under every key.
      await s().editNotes(1, { note: '', label: null });
      expect(s().notes.has(old)).toBe(false);
    }
  });

  it('two simulations had one format-2 fingerprint ([Infinity, 1] and [Infinity, 1.0]): not on the float’s, said in a notice', async () => {
    const tau2 = withFloat(true);
    const f2 = tau2LegacyFingerprints(tau2, 1)[0]!;
    // The int's simulation has it as today's fingerprint (format 3 changed nothing there).
    expect(tau2Headers(tau2)[2]!.fingerprint).toBe(f2);
    const ms = await openAll(tau2);
    expect(postsOf(ms, 'legacy-fingerprints')[0]).toMatchObject({
      indices: [],
      // Format 1 wrote both as ["Infinity", 1]: that one is ambiguous too.
      ambiguous: [
        { fingerprint: f2, rows: [1, 2] },
        { fingerprint: tau2LegacyFingerprints(tau2, 1)[1], rows: [1, 2] },
      ],
    });
    const s = await storeWith(ms, [kept(f2)]);
    expect(s().runs.a.headers.map((h) => notesOf(s(), h)?.note ?? null)).toEqual(tau2.simulations.map((_, i) => (i === 2 ? kept(f2).note : null)));
    expect(s().notices.at(-1)!.text).toContain('could be on any of several rows of this run (#1 and #2)');
  });
});
