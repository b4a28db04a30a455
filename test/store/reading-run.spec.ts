import { describe, expect, it } from 'vitest';
import type { EpisodeHeader } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { runComplete } from '../../src/store/run-state';
import { progressOf } from '../../src/features/shell/progress-bar';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';
import { TEST_DETECTION, testSummary } from '../support/store-fixtures';

/** Issue 20 item 7 in the store: a run opened on the first episodes of a file still being read. */
const header = (index: number): EpisodeHeader => ({
  index,
  taskId: index,
  trial: 0,
  recordedReward: 1,
  turns: 10,
  problem: null,
  extra: {},
  fingerprint: String(index).padStart(64, '0'),
});
const rows = (run: number, from: number, to: number, reading: boolean): FromWorker<'run-rows'> => ({
  type: 'run-rows',
  run,
  headers: Array.from({ length: to - from }, (_, k) => header(from + k)),
  reading,
});
const MB = 1024 * 1024;

describe('a run judged while its file is read', () => {
  it('grows by run-rows, is not complete before the last, and says how much is read and judged', () => {
    const { port } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().restore({ run: null, sample: 'a', file: null, ep: null, data: null, episode: 3, step: null });
    s().receive({ ...says.opened(1, 'big.json', [header(0), header(1)]), reading: true });
    expect(s().runs.a).toMatchObject({ reading: true });
    expect(s().runs.a.headers).toHaveLength(2);
    // The link's episode 3 is not read yet: nothing is selected, and the place waits for its row.
    expect(s().selected).toBeNull();
    s().receive(says.progress(1, 10 * MB, 98 * MB));
    s().receive(says.detected(1, { ...TEST_DETECTION, ruleFinal: true }, { kind: 'sample', label: 'sample' }, true));
    s().receive(says.summaries(1, [testSummary(0, 1), testSummary(1, 0)], 2));
    // Every row so far judged, the rule final: still not complete while the file is read.
    expect(runComplete(s().runs.a)).toBe(false);
    expect(progressOf(s())).toMatchObject({ label: 'Reading 10.0 MB of 98.0 MB: 2 episodes so far, 2 evaluated' });
    expect(progressOf(s())?.value).toBeCloseTo(10 / 98);
    s().receive(rows(1, 2, 4, true));
    expect(s().runs.a.headers.map((h) => h.index)).toEqual([0, 1, 2, 3]);
    expect(s().selected).toBe(3);
    s().receive(rows(1, 4, 5, false));
    expect(s().runs.a).toMatchObject({ reading: false, read: null });
    expect(runComplete(s().runs.a)).toBe(false);
    s().receive(
      says.summaries(
        1,
        [2, 3, 4].map((i) => testSummary(i, 1)),
        5,
      ),
    );
    expect(runComplete(s().runs.a)).toBe(true);
    expect(s().runs.a.summaries.filter(Boolean)).toHaveLength(5);
  });

  it('a second run-opened for the same run (the whole file read again the careful way) replaces its rows', () => {
    const { port } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive({ ...says.opened(1, 'big.json', [header(0)]), reading: true });
    s().receive(says.opened(1, 'big.json', [header(0), header(1), header(2)]));
    expect(s().runs.a).toMatchObject({ id: 1, reading: false });
    expect(s().runs.a.headers).toHaveLength(3);
    expect(s().runs.a.source?.label).toBe('big.json');
  });
});
