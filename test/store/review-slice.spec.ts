import { describe, expect, it } from 'vitest';
import type { FingerprintedHeader, EpisodeNotes, EpisodeSummary, EpisodeView } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { comparison, drillPair } from '../../src/store/review-slice';
import { runProblem } from '../../src/store/run-state';
import { says } from '../support/worker-says';
import { fakePort, sent } from '../support/fake-port';
import { TEST_DETECTION, testSummary } from '../support/store-fixtures';

const header = (index: number, taskId: number, trial: number): FingerprintedHeader => ({
  index,
  taskId,
  trial,
  recordedReward: null,
  turns: 4,
  problem: null,
  extra: {},
  fingerprint: String(index).padStart(64, 'a'),
});
const summary = (index: number, reward: number): EpisodeSummary => testSummary(index, reward, { agrees: null });
const detection = TEST_DETECTION;
// Tasks 0 and 1, two trials each, trial 0 first.
const headers = [header(0, 0, 0), header(1, 1, 0), header(2, 0, 1), header(3, 1, 1)];
const file = (name: string): File => new File(['[]'], name, { type: 'application/json' });

function openBoth() {
  const { port, calls } = fakePort();
  const store = createAppStore(port);
  const s = store.getState;
  s().openSample('a');
  s().receive(says.opened(1, 'a.json', headers));
  s().receive(says.detected(1, detection, { kind: 'sample', label: '' }, true));
  s().openCompareFile(file('<b>b</b>.json'));
  return { store, s, calls };
}

describe('comparing two runs in the store', () => {
  it('opens B with its own run id, compares only once both are evaluated, and flips task 0', () => {
    const { s, calls } = openBoth();
    expect(calls.at(-1)).toMatchObject({ type: 'open-run', slot: 'b', run: 2 });
    s().receive(says.opened(2, '<b>b</b>.json', headers));
    expect(s().compareShown).toBe(true);
    expect(s().runs.b.source?.label).toBe('<b>b</b>.json');
    // A: task 0 passes twice, task 1 once; B: task 0 fails twice.
    s().receive(says.summaries(1, [summary(0, 1), summary(1, 1), summary(2, 1), summary(3, 0)], 4));
    s().receive(says.detected(2, detection, { kind: 'sample', label: '' }, true));
    s().receive(says.summaries(2, [summary(0, 0), summary(1, 1), summary(2, 0)], 3));
    expect(comparison(s().runs.a, s().runs.b)).toBeNull();
    // Answers about the main run never land in B, nor B's in the main run: each goes to the run its id names.
    s().receive(says.summaries(1, [summary(3, 1)], 4));
    expect(comparison(s().runs.a, s().runs.b)).toBeNull();
    expect(s().runs.a.summaries[3]?.reward).toBe(1);
    s().receive(says.summaries(1, [summary(3, 0)], 4));
    s().receive(says.summaries(2, [summary(3, 1)], 4));
    expect(s().runs.a.summaries[3]?.reward).toBe(0);
    const cmp = comparison(s().runs.a, s().runs.b)!;
    expect(cmp.tasks.map((t) => [t.taskId, t.a, t.b, t.flip])).toEqual([
      [0, { trials: 2, passes: 2 }, { trials: 2, passes: 0 }, 'lost'],
      [1, { trials: 2, passes: 1 }, { trials: 2, passes: 2 }, null],
    ]);
  });

  it('opens the pair that differs first: the same trial if it flipped, else any passing/failing pair, else the first trials', () => {
    const h = [header(0, 7, 0), header(1, 7, 1), header(2, 8, 0)];
    const sums = (r: number[]): EpisodeSummary[] => r.map((x, i) => summary(i, x));
    // Trial 1 flipped (1 → 0); trial 0 passed on both sides.
    expect(drillPair(7, h, sums([1, 1, 0]), h, sums([1, 0, 0]))).toEqual({ a: 1, b: 1 });
    // Same outcomes trial by trial (trial 0 passes, trial 1 fails on both sides): A's passing trial 0 beside B's failing trial 1.
    expect(drillPair(7, h, sums([1, 0, 0]), h, sums([1, 0, 0]))).toEqual({ a: 0, b: 1 });
    // Nothing differs (or not evaluated yet): each side's first trial.
    expect(drillPair(7, h, sums([1, 1, 0]), h, sums([1, 1, 0]))).toEqual({ a: 0, b: 0 });
    expect(drillPair(7, h, [], h, [])).toEqual({ a: 0, b: 0 });
    expect(drillPair(9, h, [], h, [])).toEqual({ a: undefined, b: undefined });
  });

  it('drills into a task: views of both runs addressed by run and episode, each answer lands on its own side only', () => {
    const { s, calls } = openBoth();
    s().receive(says.opened(2, 'b.json', headers));
    s().selectCompareTask(1);
    expect(sent(calls, 'view')).toEqual([
      { type: 'view', run: 1, episode: 1 },
      { type: 'view', run: 2, episode: 1 },
    ]);
    const view = { verdict: { reward: 1 } } as unknown as EpisodeView;
    s().receive(says.view(2, 3, view)); // B's other episode: not the one shown
    s().receive(says.view(3, 1, view)); // no such run
    expect(s().compareEpisodes.a?.view).toBeNull();
    expect(s().compareEpisodes.b?.view).toBeNull();
    s().receive(says.view(1, 1, view));
    s().receive(says.view(2, 1, null, 'waiting for data'));
    expect(s().compareEpisodes.a?.view).toBe(view);
    expect(s().compareEpisodes.b).toMatchObject({ index: 1, view: null, error: 'waiting for data' });
    // The other trial on B's side.
    s().selectCompareEpisode('b', 3);
    expect(s().compareEpisodes.b).toMatchObject({ index: 3, view: null, error: null });
    expect(s().compareEpisodes.a?.view).toBe(view);
    s().closeCompare();
    expect(calls.at(-1)).toEqual({ type: 'close-run', slot: 'b' });
    expect(s().runs.b.id).toBeNull();
  });

  it('a file that cannot be opened to compare says so and leaves the open run alone', () => {
    const { s } = openBoth();
    s().receive(says.failed(2, 'b.json', 'not valid JSON'));
    expect(s().runs.b.id).toBeNull();
    expect(s().pending.b).toBeNull();
    expect(s().runs.a.source?.label).toBe('a.json');
    expect(s().notices.at(-1)?.text).toContain('not valid JSON');
  });

  it('B needing data says why and where it may be fetched from; data arriving clears it', () => {
    const { s } = openBoth();
    s().receive(says.opened(2, 'b.json', headers));
    s().receive({
      type: 'data-needed',
      run: 2,
      benchmark: 'tau-bench',
      domain: 'retail',
      suggestedBase: 'https://data.example/tau',
      files: [],
      reason: 'Needs the retail data.',
    });
    expect(runProblem(s().runs.b)).toBe('Needs the retail data. Pick a τ-bench data folder (Open ▸ τ-bench data folder…), or fetch it.');
    expect(s().runs.b.dataRequest?.suggestedBase).toBe('https://data.example/tau');
    // The open run (A) is not asked about: its data is there.
    expect(s().runs.a.dataRequest).toBeNull();
    s().receive({ type: 'data-error', run: 2, message: 'the folder has no retail files' });
    expect(runProblem(s().runs.b)).toBe('the folder has no retail files');
    s().receive(says.detected(2, detection, { kind: 'sample', label: '' }, true));
    expect(runProblem(s().runs.b)).toBeNull();
  });
});

describe('the report in the store', () => {
  it('asks for the open run with the notes of its episodes and resolves with the HTML; an error is kept', async () => {
    const { store, s, calls } = openBoth();
    const mine: EpisodeNotes = {
      fingerprint: headers[2]!.fingerprint,
      label: 'agent error',
      note: 'x',
      steps: {},
      file: 'a.json',
      index: 2,
      taskId: 0,
      updatedAt: 't',
    };
    const other: EpisodeNotes = { ...mine, fingerprint: 'f'.repeat(64) };
    store.setState({
      notes: new Map([
        [mine.fingerprint, mine],
        [other.fingerprint, other],
      ]),
    });
    const done = s().buildReport();
    const call = sent(calls, 'report').at(-1)!;
    expect(call).toMatchObject({ run: 1, title: 'a.json', notes: [mine] });
    expect(s().report?.state).toBe('building');
    const file = { size: 13, type: 'text/html' };
    s().receive({ type: 'report', run: 1, id: call.id, file, error: null });
    await expect(done).resolves.toBe(file);
    expect(s().report).toBeNull();

    const failed = s().buildReport();
    const id = sent(calls, 'report').at(-1)!.id;
    s().receive({ type: 'report', run: 1, id, file: null, error: 'waiting for data' });
    await expect(failed).resolves.toBeNull();
    expect(s().report).toMatchObject({ state: 'error', error: 'waiting for data' });
  });

  it('a report made from an edited view carries the what-if edits the page holds (none: no edits field)', () => {
    const { store, s, calls } = openBoth();
    void s().buildReport();
    expect(sent(calls, 'report').at(-1)).not.toHaveProperty('edits');
    const edit = { messageIndex: 4, remove: true };
    store.setState({ whatIfEdits: { 3: [edit], 5: [] } });
    void s().buildReport();
    expect(sent(calls, 'report').at(-1)!.edits).toEqual([{ episode: 3, edits: [edit] }]);
  });
});
