import { describe, expect, it } from 'vitest';
import type { EpisodeView } from '../../src/core/view/episode-view';
import type { EpisodeHeader, EpisodeSummary } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { visibleRows } from '../../src/store/rows';
import { runAverages } from '../../src/store/run-stats';
import { says } from '../support/worker-says';
import { fakePort } from '../support/fake-port';
import { progressOf } from '../../src/features/shell/progress-bar';
import { TEST_DETECTION, testSummary } from '../support/store-fixtures';

const header = (index: number, taskId: number, trial: number, recordedReward: number): EpisodeHeader => ({
  index,
  taskId,
  trial,
  recordedReward,
  turns: 10 + index,
  problem: null,
  extra: {},
  fingerprint: String(index).padStart(64, '0'),
});
const summary = (index: number, reward: number, recorded: number, reasons: EpisodeSummary['reasons'] = []): EpisodeSummary =>
  testSummary(index, reward, { reasons, agrees: reward === recorded });
const detection = TEST_DETECTION;
const headers = [header(0, 0, 0, 1), header(1, 0, 1, 0), header(2, 1, 0, 1)];

describe('app store', () => {
  it('opens a run, keeps the old one when the next fails, and ignores stale answers', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    expect(calls[0]).toEqual({ type: 'open-run', slot: 'a', run: 1, source: { kind: 'sample', name: 'a' } });
    s().receive(says.opened(1, 'a.json', headers));
    expect(s().runs.a.source?.label).toBe('a.json');
    s().openUrl('https://x/y.json');
    s().receive(says.failed(2, 'https://x/y.json', 'not valid JSON'));
    expect(s().runs.a.source?.label).toBe('a.json');
    expect(s().notices.at(-1)?.text).toContain('not valid JSON');
    s().receive(says.summaries(2, [summary(0, 1, 1)], 1));
    expect(s().runs.a.summaries[0]).toBeUndefined();
    s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
    s().receive(says.summaries(1, [summary(0, 1, 1), summary(1, 1, 0, [])], 2));
    expect(s().runs.a.summaries[1]?.agrees).toBe(false);
  });

  it('shows how much of a big file has been read while it opens (progress bar and words), only for the run being opened', () => {
    const { port } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', headers));
    s().openUrl('https://x/big.json');
    expect(progressOf(s())?.label).toBe('Opening https://x/big.json…');
    s().receive(says.progress(1, 5, 10));
    expect(s().pending.a?.read).toBeUndefined();
    s().receive(says.progress(2, 45 * 1024 * 1024, 98 * 1024 * 1024));
    expect(progressOf(s())).toMatchObject({ label: 'Reading https://x/big.json: 45.0 MB of 98.0 MB', short: 'Reading 45%' });
    expect(progressOf(s())?.value).toBeCloseTo(45 / 98);
    s().receive(says.progress(2, 3 * 1024 * 1024, null));
    expect(progressOf(s())).toMatchObject({ label: 'Reading https://x/big.json: 3.0 MB', value: null });
    s().receive(says.opened(2, 'big.json', headers));
    expect(s().pending.a).toBeNull();
    expect(progressOf(s())?.label ?? '').not.toContain('Reading');
  });

  it('stops and resumes the open run, and forgets "stopped" on new data or another run', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', headers));
    s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
    s().receive(says.summaries(1, [summary(0, 1, 1)], 1));
    s().stopEvaluation();
    expect(s().runs.a.stopped).toBe(true);
    expect(calls.at(-1)).toEqual({ type: 'cancel', run: 1 });
    // Asked twice, sent once.
    s().stopEvaluation();
    expect(calls.filter((c) => c.type === 'cancel')).toHaveLength(1);
    // Rows not evaluated stay so: the recomputed average names its denominator, the rest are not counted as 0.
    const a = runAverages(s().runs.a.headers, s().runs.a.summaries);
    expect(a.complete).toBe(false);
    expect(a.recomputed.count).toBe(1);
    expect(a.recordedSameEpisodes.count).toBe(1);
    s().resumeEvaluation();
    expect(s().runs.a.stopped).toBe(false);
    expect(calls.at(-1)).toEqual({ type: 'resume', run: 1 });
    s().resumeEvaluation();
    expect(calls.filter((c) => c.type === 'resume')).toHaveLength(1);
    // New data: the worker starts the run again, stopped or not.
    s().stopEvaluation();
    s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
    expect(s().runs.a.stopped).toBe(false);
    // A run that fails to open leaves the stopped one stopped; one that opens starts afresh.
    s().stopEvaluation();
    s().openUrl('https://x/y.json');
    s().receive(says.failed(2, 'https://x/y.json', 'not valid JSON'));
    expect(s().runs.a.stopped).toBe(true);
    s().openSample('a');
    s().receive(says.opened(3, 'a.json', headers));
    expect(s().runs.a.stopped).toBe(false);
  });

  it('keeps the complaint about a link that failed when the sample opens in its place', () => {
    const { port } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().receive(says.samples(['a']));
    s().restore({ run: null, sample: null, file: null, ep: 'AAAA', data: null, episode: null, step: null });
    s().receive(says.failed(1, 'episode shared in the link', 'the episode in this link is damaged (it ends early)'));
    expect(s().pending.a?.fallback).toBe(true);
    s().receive(says.opened(2, 'a.json', headers));
    expect(s().runs.a.source?.label).toBe('a.json');
    expect(
      s()
        .notices.map((n) => n.text)
        .join('\n'),
    ).toContain('damaged (it ends early)');
    // A run the user opens afterwards makes that complaint moot.
    s().openSample('a');
    s().receive(says.opened(3, 'a.json', headers));
    expect(s().notices.filter((n) => n.tone === 'error')).toEqual([]);
  });

  it('requests the view of the selected episode and clamps the step', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().restore({ run: null, sample: 'a', file: null, ep: null, data: 'https://data.example', episode: 2, step: 7 });
    // The link's data host was never agreed to: it is only proposed, not fetched (see consent.spec.ts).
    expect(calls.map((c) => c.type)).toEqual(['open-run']);
    expect(s().linkDataBase).toBe('https://data.example');
    s().receive(says.opened(1, 'a.json', headers));
    expect(s().selected).toBe(2);
    s().receive(says.detected(1, detection, { kind: 'url', label: 'u' }, true));
    const view = calls.find((c) => c.type === 'view');
    expect(view).toEqual({ type: 'view', run: 1, episode: 2 });
    s().receive(says.view(1, 2, { steps: [{}, {}, {}] } as unknown as EpisodeView));
    expect(s().step).toBe(2);
    s().setStep(-4);
    expect(s().step).toBe(0);
  });

  it('filters failed rows, by reason and by search hits, and sorts by recomputed reward', () => {
    const sums = [summary(0, 1, 1), summary(1, 0, 0, ['db-mismatch']), undefined];
    const f = { failedOnly: false, reason: null, taskId: null };
    expect(visibleRows(headers, sums, { ...f, failedOnly: true }, { key: 'index', desc: false }, null)).toEqual([1]);
    expect(visibleRows(headers, sums, { ...f, reason: 'db-mismatch' }, { key: 'index', desc: false }, null)).toEqual([1]);
    expect(visibleRows(headers, sums, { ...f, taskId: 0 }, { key: 'index', desc: false }, new Set([1, 2]))).toEqual([1]);
    expect(visibleRows(headers, sums, f, { key: 'reward', desc: false }, null)).toEqual([1, 0, 2]);
  });
  it('keeps step keys pressed while the episode is still loading and applies them when its steps arrive', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', headers));
    s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
    s().select(1);
    expect(calls.filter((c) => c.type === 'transcript')).toEqual([{ type: 'transcript', run: 1, episode: 1 }]);
    // The view is not there yet: j, j, k leave the cursor at step 1 once it is.
    s().moveStep('next');
    s().moveStep('next');
    s().moveStep('prev');
    expect(s().step).toBe(1);
    s().receive(says.view(1, 1, { steps: [{}, {}, {}, {}] } as unknown as EpisodeView));
    expect(s().step).toBe(1);
    // End before the view: the last step once it arrives, however many there are.
    s().select(0);
    s().moveStep('last');
    s().receive(says.view(1, 0, { steps: [{}, {}, {}, {}, {}, {}] } as unknown as EpisodeView));
    expect(s().step).toBe(5);
    s().moveStep('next');
    expect(s().step).toBe(5);
    s().moveStep('first');
    expect(s().step).toBe(0);
    s().moveStep('prev');
    expect(s().step).toBe(0);
  });

  it('steps to the next and previous episode in list order, and to the next failed one', () => {
    const { port } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    const four = [...headers, header(3, 1, 1, 0)];
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', four));
    s().receive(says.detected(1, detection, { kind: 'sample', label: 'sample' }, true));
    s().receive(says.summaries(1, [summary(0, 1, 1), summary(1, 0, 0, ['db-mismatch']), summary(2, 1, 1), summary(3, 0, 0, ['missing-output'])], 4));
    s().select(0);
    s().stepEpisode(1);
    expect(s().selected).toBe(1);
    s().stepEpisode(1, true);
    expect(s().selected).toBe(3);
    s().stepEpisode(1);
    expect(s().selected).toBe(3);
    s().stepEpisode(-1, true);
    expect(s().selected).toBe(1);
    s().sortBy('reward');
    s().sortBy('reward');
    // Sorted by recomputed reward, descending: 0, 2, 1, 3 (ties in file order).
    s().select(2);
    s().stepEpisode(1);
    expect(s().selected).toBe(1);
    s().receive({ type: 'transcript', run: 1, episode: 0, transcript: { index: 0, strategy: 'tool-calling', instruction: '', messages: [], problem: null } });
    expect(s().transcript).toBeNull();
    s().receive({
      type: 'transcript',
      run: 1,
      episode: 1,
      transcript: { index: 1, strategy: 'tool-calling', instruction: 'goal', messages: [], problem: null },
    });
    expect(s().transcript?.instruction).toBe('goal');
  });
});
