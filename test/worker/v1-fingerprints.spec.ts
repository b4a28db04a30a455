/**
 * A τ-bench run's rows go out before their fingerprints, as a τ² run's do (src/worker/keyer.ts): the episode
 * opened and the rows on screen get theirs at once, the rest once judging leaves the worker's thread idle. Worker
 * side: what `RunController` posts, in what order, and that every fingerprint is `episodeFingerprint`'s. Store
 * side: a note kept on an episode shows on its row once the row's fingerprint arrives, and none is taken before.
 */
import { describe, expect, it } from 'vitest';
import { episodeFingerprint, type EpisodeNotes } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes } from '../../src/store/notes-port';
import { labelCounts, notesOf } from '../../src/store/notes-slice';
import { RunController } from '../../src/worker/run-controller';
import { fakePort } from '../support/fake-port';
import { sampleRun } from '../support/fixtures';
import { capturePosts, postsOf, tick } from '../support/worker-says';

const posted = capturePosts();

const keyedCount = (ms: readonly FromWorker[]): number => postsOf(ms, 'fingerprints').reduce((k, m) => k + m.indices.length, 0);

/** The sample run opened as the page opens it; `opened` acts once its rows are out. Waits for every fingerprint and verdict. */
async function openSample(opened?: (runs: RunController) => void): Promise<FromWorker[]> {
  posted.length = 0;
  const runs = new RunController();
  const opening = runs.open('a', 1, { kind: 'sample', name: 'retail-sample' });
  while (postsOf(posted, 'run-opened').length === 0) await tick();
  opened?.(runs);
  await opening;
  const n = sampleRun().length;
  for (let i = 0; i < 5000; i++) {
    const judged = postsOf(posted, 'summaries').at(-1)?.evaluated ?? 0;
    if (keyedCount(posted) >= n && judged >= n) break;
    await tick();
  }
  runs.close('a');
  return [...posted];
}

const expected = (): string[] => sampleRun().map(episodeFingerprint);

describe('a τ-bench run’s rows before their fingerprints (worker)', () => {
  it('posts the rows without fingerprints, then each one once, equal to episodeFingerprint, after the last verdict', async () => {
    const ms = await openSample();
    const n = sampleRun().length;
    const opened = postsOf(ms, 'run-opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.headers.map((h) => h.fingerprint)).toEqual(new Array(n).fill(null));
    const keyed = postsOf(ms, 'fingerprints');
    const got = new Map<number, string>();
    for (const m of keyed)
      m.indices.forEach((i, k) => {
        expect(got.has(i)).toBe(false);
        got.set(i, m.fingerprints[k]!);
      });
    expect(Array.from({ length: n }, (_, i) => got.get(i))).toEqual(expected());
    // Judging first: the sweep waits until this thread has no episode left to judge.
    const verdicts = postsOf(ms, 'summaries');
    expect(verdicts.at(-1)!.evaluated).toBe(n);
    expect(ms.indexOf(keyed[0]!)).toBeGreaterThan(ms.indexOf(verdicts.at(-1)!));
  });

  it('gives the episode opened and the rows on screen theirs at once (as the request is handled), the sweep none of them again', async () => {
    const n = sampleRun().length;
    const answered: FromWorker[][] = [];
    const ms = await openSample((runs) => {
      const at = posted.length;
      runs.withRun(1, (h) => h.transcript({ run: 1, episode: n - 1 }));
      answered.push(postsOf(posted.slice(at), 'fingerprints'));
      const then = posted.length;
      runs.withRun(1, (h) => h.prioritize([4, 5, 6]));
      answered.push(postsOf(posted.slice(then), 'fingerprints'));
    });
    expect(answered[0]).toEqual([{ type: 'fingerprints', run: 1, indices: [n - 1], fingerprints: [expected()[n - 1]] }]);
    // The rows on screen are keyed for up to one slice as the request is handled (at least the first of them, in their
    // order; all three unless the machine is slow), and any left come first in the sweep, before every other row.
    expect(answered[1]).toHaveLength(1);
    const now = answered[1]![0] as FromWorker<'fingerprints'>;
    expect(now.indices.length).toBeGreaterThan(0);
    expect(now.indices).toEqual([4, 5, 6].slice(0, now.indices.length));
    expect(now.fingerprints).toEqual(expected().slice(4, 4 + now.indices.length));
    const keyed = postsOf(ms, 'fingerprints');
    const order = keyed.flatMap((m) => m.indices);
    expect(order.slice(0, 4)).toEqual([n - 1, 4, 5, 6]);
    expect([...order].sort((a, b) => a - b)).toEqual(expected().map((_, i) => i));
    const byIndex = new Map(keyed.flatMap((m) => m.indices.map((i, k) => [i, m.fingerprints[k]] as const)));
    expect(expected().every((fp, i) => byIndex.get(i) === fp)).toBe(true);
  });
});

describe('notes while a τ-bench run’s fingerprints are coming (store)', () => {
  it('shows a kept note on its row once the row’s fingerprint arrives, and takes none before', async () => {
    const ms = await openSample();
    const fps = expected();
    const mem = memoryNotes();
    const kept: EpisodeNotes = {
      fingerprint: fps[3]!,
      label: 'agent error',
      note: 'kept',
      steps: {},
      file: 'retail-sample.json',
      index: 3,
      taskId: null,
      updatedAt: 'then',
    };
    await mem.put(kept);
    const { port } = fakePort();
    const store = createAppStore(port, undefined, mem);
    await store.getState().loadNotes();
    store.getState().openSample('retail-sample');
    const pendingRun = store.getState().pending.a!.run;
    const rebadge = <M extends FromWorker>(m: M): M => ('run' in m ? { ...m, run: pendingRun } : m);
    const s = () => store.getState();
    s().receive(rebadge(postsOf(ms, 'run-opened')[0]!));
    expect(s().runs.a.headers).toHaveLength(fps.length);
    expect(notesOf(s(), s().runs.a.headers[3])).toBeNull();
    expect(labelCounts(s().runs.a.headers, s().notes)).toEqual(new Map());
    await s().editNotes(5, { note: 'typed too early' });
    expect((await mem.all()).map((n) => n.note)).toEqual(['kept']);
    expect(s().notices.at(-1)!.text).toMatch(/#5 yet: the key they are kept under .* is being computed; try again in a moment/);
    for (const m of postsOf(ms, 'fingerprints')) s().receive(rebadge(m));
    expect(s().runs.a.headers.map((h) => h.fingerprint)).toEqual(fps);
    expect(notesOf(s(), s().runs.a.headers[3])).toMatchObject({ note: 'kept' });
    expect(labelCounts(s().runs.a.headers, s().notes)).toEqual(new Map([['agent error', 1]]));
    await s().editNotes(5, { note: 'now' });
    expect((await mem.all()).find((n) => n.note === 'now')).toMatchObject({ fingerprint: fps[5], index: 5 });
  });
});
