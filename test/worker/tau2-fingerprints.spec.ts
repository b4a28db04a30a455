/**
 * A τ² run's rows go out before their fingerprints (each hashes its simulation's content, ~1.5 ms), and the
 * fingerprints follow in slices with messages handled between. Worker side: the order of what `Tau2Runs`
 * posts and the fingerprints it gives. Store side: a row without its fingerprint has no notes and takes none
 * (refused in words), and once the fingerprints arrive every note is on its own simulation.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTau2Text, tau2Headers, type EpisodeNotes, type Tau2Run } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes } from '../../src/store/notes-port';
import { labelCounts, notesOf } from '../../src/store/notes-slice';
import { DataLocator } from '../../src/worker/data-locator';
import { Tau2Data } from '../../src/worker/tau2/data';
import { Tau2RunHandle } from '../../src/worker/tau2/run';
import { fakePort, sent } from '../support/fake-port';
import { capturePosts, postsOf, tick } from '../support/worker-says';

const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '../../sample-runs/runs/tau2-mock-sample.json');

/** The sample's simulations repeated `copies` times, each copy's ids its own (so each simulation has its own fingerprint). */
function repeated(copies: number): string {
  const run = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { simulations: { id: string; trial: number }[] };
  const simulations = Array.from({ length: copies }, (_, k) => run.simulations.map((s) => ({ ...s, id: `${s.id}-copy${k}`, trial: k }))).flat();
  return JSON.stringify({ ...run, simulations });
}

const posted = capturePosts();

/** Opens `tau2` as the page's sample run would be, and waits until every fingerprint and every verdict is posted. */
async function openAll(tau2: Tau2Run, during?: (run: Tau2RunHandle) => void): Promise<FromWorker[]> {
  posted.length = 0;
  const runs = new Tau2RunHandle('a', 1, tau2, true, new Tau2Data(new DataLocator()));
  const opening = runs.open('run.json');
  during?.(runs);
  await opening;
  const n = tau2.simulations.length;
  for (let i = 0; i < 2000; i++) {
    const keyed = postsOf(posted, 'fingerprints').reduce((k, m) => k + m.indices.length, 0);
    const judged = postsOf(posted, 'summaries').at(-1)?.evaluated ?? 0;
    if (keyed >= n && judged >= n) break;
    await tick();
  }
  runs.close();
  return [...posted];
}

describe('a τ² run’s rows before their fingerprints (worker)', () => {
  it('posts the rows without fingerprints first, then every fingerprint once, equal to the ones the CLI computes', async () => {
    const tau2 = readTau2Text(repeated(40))!;
    const n = tau2.simulations.length;
    const ms = await openAll(tau2);
    const opened = postsOf(ms, 'run-opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.headers.map((h) => h.fingerprint)).toEqual(new Array(n).fill(null));
    const keyed = postsOf(ms, 'fingerprints');
    expect(ms.indexOf(opened[0]!)).toBeLessThan(ms.indexOf(keyed[0]!));
    const got = new Map<number, string>();
    for (const m of keyed)
      m.indices.forEach((i, k) => {
        expect(got.has(i)).toBe(false);
        got.set(i, m.fingerprints[k]!);
      });
    const cli = tau2Headers(tau2).map((h) => h.fingerprint);
    expect([...got.keys()].sort((x, y) => x - y)).toEqual(cli.map((_, i) => i));
    expect(cli.map((_, i) => got.get(i))).toEqual(cli);
    expect(new Set(cli).size).toBe(n);
  });

  it('gives the simulation opened its fingerprint at once, before the slices reach it', async () => {
    const tau2 = readTau2Text(repeated(40))!;
    const last = tau2.simulations.length - 1;
    const ms = await openAll(tau2, (runs) => runs.view({ run: 1, episode: last }));
    const keyed = postsOf(ms, 'fingerprints');
    expect(keyed[0]!.indices).toEqual([last]);
    expect(keyed[0]!.fingerprints).toEqual([tau2Headers(tau2)[last]!.fingerprint]);
    // Never twice: the slices skip it.
    expect(keyed.flatMap((m) => m.indices).filter((i) => i === last)).toHaveLength(1);
  });
});

describe('a run held while another opens in its slot', () => {
  it('sweeps no fingerprint while held, and every one once it goes on', async () => {
    const tau2 = readTau2Text(repeated(40))!;
    const n = tau2.simulations.length;
    posted.length = 0;
    const runs = new Tau2RunHandle('a', 1, tau2, true, new Tau2Data(new DataLocator()));
    await runs.open('run.json');
    // Held before its sweep took a slice (the sweep waits for the data and for judging, both held here).
    const resume = runs.hold();
    const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
    await wait(300);
    expect(postsOf(posted, 'fingerprints')).toEqual([]);
    resume();
    for (let i = 0; i < 2000 && postsOf(posted, 'fingerprints').reduce((k, m) => k + m.indices.length, 0) < n; i++) await wait(5);
    runs.close();
    expect(
      postsOf(posted, 'fingerprints')
        .flatMap((m) => m.indices)
        .sort((x, y) => x - y),
    ).toEqual(tau2.simulations.map((_, i) => i));
  });
});

describe('the rows on screen', () => {
  it('get their fingerprints before the rest', async () => {
    const tau2 = readTau2Text(repeated(40))!;
    const ms = await openAll(tau2, (runs) => runs.prioritize([300, 301, 302]));
    const keyed = postsOf(ms, 'fingerprints');
    expect(keyed[0]!.indices.slice(0, 3)).toEqual([300, 301, 302]);
    expect(keyed.flatMap((m) => m.indices).sort((x, y) => x - y)).toEqual(tau2.simulations.map((_, i) => i));
  });
});

describe('notes while a τ² run’s fingerprints are coming (store)', () => {
  it('shows no note and takes none on a row without its fingerprint; once it arrives, each note is on its own simulation', async () => {
    const tau2 = readTau2Text(readFileSync(SAMPLE, 'utf8'))!;
    const ms = await openAll(tau2);
    const fps = tau2Headers(tau2).map((h) => h.fingerprint);
    const mem = memoryNotes();
    // A note kept earlier on simulation 3 (by its content).
    const kept: EpisodeNotes = {
      fingerprint: fps[3]!,
      label: 'agent error',
      note: 'kept',
      steps: {},
      file: 'run.json',
      index: 3,
      taskId: null,
      updatedAt: 'then',
    };
    await mem.put(kept);
    const { port, calls } = fakePort();
    const store = createAppStore(port, undefined, mem);
    await store.getState().loadNotes();
    store.getState().openSample('tau2-mock-sample');
    const pendingRun = store.getState().pending.a!.run;
    const rebadge = <M extends FromWorker>(m: M): M => ('run' in m ? { ...m, run: pendingRun } : m);
    store.getState().receive(rebadge(postsOf(ms, 'run-opened')[0]!));
    const s = () => store.getState();
    expect(s().runs.a.headers).toHaveLength(fps.length);
    // No chip, no count, no note: the row's key is not known yet.
    expect(notesOf(s(), s().runs.a.headers[3])).toBeNull();
    expect(labelCounts(s().runs.a.headers, s().notes)).toEqual(new Map());
    // A note typed now is refused in words, never kept under another key.
    await s().editNotes(5, { note: 'typed too early' });
    expect((await mem.all()).map((n) => n.note)).toEqual(['kept']);
    expect(s().notices.at(-1)).toMatchObject({ tone: 'error' });
    expect(s().notices.at(-1)!.text).toMatch(/#5 yet: the key they are kept under .* is being computed; try again in a moment/);
    // The report waits for the fingerprints (its notes are matched by them).
    const report = s().buildReport();
    expect(sent(calls, 'report')).toEqual([]);
    for (const m of postsOf(ms, 'fingerprints')) store.getState().receive(rebadge(m));
    expect(s().runs.a.headers.map((h) => h.fingerprint)).toEqual(fps);
    expect(notesOf(s(), s().runs.a.headers[3])).toMatchObject({ note: 'kept' });
    expect(labelCounts(s().runs.a.headers, s().notes)).toEqual(new Map([['agent error', 1]]));
    await tick();
    expect(sent(calls, 'report').map((m) => m.notes.map((n) => n.fingerprint))).toEqual([[fps[3]]]);
    await s().editNotes(5, { note: 'now' });
    expect((await mem.all()).find((n) => n.note === 'now')).toMatchObject({ fingerprint: fps[5], index: 5 });
    // A fingerprint once known never changes.
    store.getState().receive({ type: 'fingerprints', run: pendingRun, indices: [5], fingerprints: [fps[6]!] });
    expect(s().runs.a.headers[5]!.fingerprint).toBe(fps[5]);
    s().receive({ type: 'report', run: pendingRun, id: sent(calls, 'report')[0]!.id, file: null, error: 'stop' });
    await report;
  });
});
