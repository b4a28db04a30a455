/** The store's side of reviewing τ² runs: notes on a simulation, two τ² runs compared, a τ-bench run beside a τ² run refused, trials. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseNotesExport, readTau2Text, TAU2_TASK_KEY, tau2Headers, type EpisodeHeader, type EpisodeSummary } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { createAppStore } from '../../src/store/app-store';
import { memoryNotes } from '../../src/store/notes-port';
import { comparison } from '../../src/store/review-slice';
import { compareTasks } from '../../src/store/tau2/compare';
import { fakePort, sent } from '../support/fake-port';
import { says } from '../support/worker-says';

const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '../../sample-runs/runs/tau2-mock-sample.json');

const tau2Opened = (run: number, label: string, headers: readonly EpisodeHeader[], numTrials: number | null = null): FromWorker<'run-opened'> =>
  says.tau2Opened(run, label, headers, { domain: 'telecom', solo: false, numTrials, notes: [] });

/** A τ² header of task `task` (text id), trial `trial`. */
const h = (index: number, task: string, trial: number, termination = 'user_stop'): EpisodeHeader => ({
  index,
  taskId: index,
  trial,
  recordedReward: null,
  turns: 2,
  problem: null,
  extra: { [TAU2_TASK_KEY]: task, termination_reason: termination },
  fingerprint: String(index).padStart(64, 'f'),
});
const row = (index: number, reward: number): EpisodeSummary => ({
  index,
  reward,
  hypotheticalReward: null,
  done: true,
  doneBy: 'user_stop',
  reasons: [],
  reasonTexts: [],
  error: null,
  strategy: null,
  stepsExecuted: 0,
  diffCount: 0,
  outputsMissing: [],
  outputsTotal: 0,
  agrees: null,
});

function twoRuns(a: readonly EpisodeHeader[], b: readonly EpisodeHeader[], bTau2 = true) {
  const { port, calls } = fakePort();
  const store = createAppStore(port, undefined, memoryNotes());
  store.getState().openSample('a');
  store.getState().receive(tau2Opened(1, 'a.json', a, 2));
  store.getState().openCompareFile(new File(['{}'], 'b.json'));
  const run = store.getState().pending.b!.run;
  store.getState().receive(bTau2 ? tau2Opened(run, 'b.json', b, 2) : says.opened(run, 'b.json', b));
  return { store, calls, b: run };
}

describe('notes on τ² simulations in the store', () => {
  it('are kept under the simulation’s fingerprint and exported with the run’s notes', async () => {
    const headers = tau2Headers(readTau2Text(readFileSync(SAMPLE, 'utf8'))!);
    const { port } = fakePort();
    const mem = memoryNotes();
    const store = createAppStore(port, undefined, mem);
    store.getState().openSample('tau2-mock-sample');
    store.getState().receive(tau2Opened(1, 'tau2-mock-sample.json', headers));
    await store.getState().editNotes(4, { label: 'task or annotation bug', note: 'never said' });
    expect(store.getState().notes.get(headers[4]!.fingerprint)).toMatchObject({ label: 'task or annotation bug', note: 'never said', index: 4 });
    expect((await mem.all()).map((n) => n.fingerprint)).toEqual([headers[4]!.fingerprint]);
    const exported = parseNotesExport(store.getState().exportRunNotes());
    expect(exported.ok && exported.value.episodes.map((e) => [e.fingerprint, e.index, e.task, e.file])).toEqual([
      [headers[4]!.fingerprint, 4, 'offsite_for_bram', 'tau2-mock-sample.json'],
    ]);
  });
});

describe('two τ² runs compared in the store', () => {
  it('lines up text task ids across both runs (each run numbers its own apart) and counts pass^k by τ²’s convention', () => {
    // A has tasks b, c; B has a, b: each run's own headers number "b" differently.
    const a = [h(0, 'b', 0), h(1, 'b', 1), h(2, 'c', 0), h(3, 'c', 1)];
    const b = [h(0, 'a', 0), h(1, 'a', 1), h(2, 'b', 0), h(3, 'b', 1), h(4, 'b', 2, 'infrastructure_error')];
    const { store } = twoRuns(a, b);
    const s = (): ReturnType<typeof store.getState> => store.getState();
    expect(comparison(s().runs.a, s().runs.b)).toBeNull();
    store.getState().receive(says.summaries(1, [row(0, 0), row(1, 1), row(2, 1), row(3, 1)], 4));
    store.getState().receive(says.summaries(s().runs.b.id!, [row(0, 1), row(1, 1), row(2, 1), row(3, 1), row(4, 0)], 5));
    const cmp = comparison(s().runs.a, s().runs.b)!;
    const tasks = compareTasks(s().runs.a, s().runs.b);
    expect(cmp.tasks.map((t) => [tasks.name(t.taskId), `${t.a.passes}/${t.a.trials}`, `${t.b.passes}/${t.b.trials}`])).toEqual([
      ['a', '0/0', '2/2'],
      ['b', '1/2', '2/3'],
      ['c', '2/2', '0/0'],
    ]);
    // τ²: B's infrastructure error is left out (b then passes 2 of 2); the τ-bench pass^k would count it as a failure.
    expect(cmp.passK.b).toEqual([
      { k: 1, value: 1 },
      { k: 2, value: 1 },
    ]);
    expect(cmp.passK.a.map((p) => p.value)).toEqual([0.75, 0.5]);
  });

  it('drills into a task: each side’s simulation is asked for as a view and shown when it arrives', () => {
    const a = [h(0, 'x', 0), h(1, 'y', 0)];
    const b = [h(0, 'y', 0), h(1, 'x', 0)];
    const { store, calls, b: runB } = twoRuns(a, b);
    store.getState().receive(says.summaries(1, [row(0, 1), row(1, 0)], 2));
    store.getState().receive(says.summaries(runB, [row(0, 1), row(1, 1)], 2));
    const y = comparison(store.getState().runs.a, store.getState().runs.b)!.tasks.find(
      (t) => compareTasks(store.getState().runs.a, store.getState().runs.b).name(t.taskId) === 'y',
    )!;
    store.getState().selectCompareTask(y.taskId);
    expect(sent(calls, 'view').map((m) => [m.run, m.episode])).toEqual([
      [1, 1],
      [runB, 0],
    ]);
    store.getState().receive({ type: 'view', run: runB, episode: 0, view: null, error: 'waiting for τ² data' });
    expect(store.getState().compareEpisodes.b).toMatchObject({ index: 0, error: 'waiting for τ² data' });
  });
});

describe('a τ-bench run beside a τ² run', () => {
  it('is refused with the reason when B is τ-bench and A τ²: B closed in the worker, nothing compared', () => {
    const { store, calls } = twoRuns([h(0, 'x', 0)], [{ ...h(0, 'x', 0), extra: {} }], false);
    expect(store.getState().runs.b.id).toBeNull();
    expect(store.getState().compareShown).toBe(false);
    expect(sent(calls, 'close-run')).toEqual([{ type: 'close-run', slot: 'b' }]);
    expect(store.getState().notices.at(-1)?.text).toBe(
      'Not compared: B (b.json) is a τ-bench (v1) run and A (a.json) is a τ²-bench run: their tasks, rewards and pass^k are not the same thing, so they are not compared task by task. Compare two τ-bench runs, or two τ² runs.',
    );
  });

  it('is refused the other way too, and a τ² run opened as A closes a τ-bench B', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port, undefined, memoryNotes());
    store.getState().openSample('v1');
    store.getState().receive(says.opened(1, 'v1.json', [h(0, 'x', 0)]));
    store.getState().openCompareFile(new File(['{}'], 'tau2.json'));
    store.getState().receive(tau2Opened(store.getState().pending.b!.run, 'tau2.json', [h(0, 'x', 0)]));
    expect(store.getState().runs.b.id).toBeNull();
    expect(store.getState().notices.at(-1)?.text).toMatch(/^Not compared: B \(tau2\.json\) is a τ²-bench run and A \(v1\.json\) is a τ-bench \(v1\) run/);

    store.getState().openCompareFile(new File(['[]'], 'v1b.json'));
    store.getState().receive(says.opened(store.getState().pending.b!.run, 'v1b.json', [h(0, 'x', 0)]));
    expect(store.getState().runs.b.id).not.toBeNull();
    store.getState().openSample('tau2');
    store.getState().receive(tau2Opened(store.getState().pending.a!.run, 'tau2-a.json', [h(0, 'x', 0)]));
    expect(store.getState().runs.a.benchmark?.kind).toBe('tau2');
    expect(store.getState().runs.b.id).toBeNull();
    expect(sent(calls, 'close-run')).toHaveLength(2);
    expect(store.getState().notices.at(-1)?.text).toMatch(/^Not compared: B \(v1b\.json\) is a τ-bench \(v1\) run and A \(tau2-a\.json\) is a τ²-bench run/);
  });
});

describe('another trial of a τ² task', () => {
  it('is asked for as a view once the data is there', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port, undefined, memoryNotes());
    store.getState().openSample('t');
    store.getState().receive(tau2Opened(1, 't.json', [h(0, 'x', 0), { ...h(1, 'x', 1), taskId: 0 }, h(2, 'y', 0)]));
    store.getState().select(0);
    store.getState().compareWithTrial(1);
    expect(store.getState().trialCompare?.error).toBe('the verdicts need τ²-bench’s data, which is not loaded yet');
    store.getState().receive(says.tau2Ready(1, 'w'));
    store.getState().compareWithTrial(1);
    expect(sent(calls, 'view').at(-1)).toEqual({ type: 'view', run: 1, episode: 1 });
    store.getState().receive({ type: 'view', run: 1, episode: 1, view: null, error: 'gone' });
    expect(store.getState().trialCompare).toMatchObject({ other: 1, error: 'gone' });
  });
});
