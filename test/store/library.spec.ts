/**
 * The library's store side: its numbers from a table (pass^k by each benchmark's own helper, task health), where a
 * run's file is found in a picked folder, what opening a run asks of the worker, and the library's link.
 */
import { describe, expect, it } from 'vitest';
import { passHatK, TAU2_TASK_KEY, tau2PassHatK, type EpisodeHeader, type EpisodeSummary } from '../../src/core/contract';
import type { FolderFile, LibraryRun, LibraryTable } from '../../src/protocol/wire-types';
import { LIBRARY_FLAG } from '../../src/protocol/wire-types';
import { createAppStore } from '../../src/store/app-store';
import { formatLibraryLink, parseLibraryLink } from '../../src/store/library-link';
import { findRunFiles, underBase } from '../../src/store/library-slice';
import { parseLink } from '../../src/store/link';
import { leaderboard, NO_LIBRARY_FILTERS, NO_NUM_TRIALS, overviewTaskId, taskGrids, taskHealth } from '../../src/core/contract';
import { tau2Pass } from '../../src/store/tau2/compare';
import { fakePort, sent } from '../support/fake-port';

interface Row {
  run: number;
  task: string;
  trial: number;
  reward: number | null;
  recorded: number;
  flags?: number;
}

function table(runs: LibraryRun[], rows: Row[]): LibraryTable {
  const tasks = [...new Set(rows.map((r) => r.task))];
  return {
    runs,
    tasks,
    run: Int32Array.from(rows.map((r) => r.run)),
    index: Int32Array.from(rows.map((_, i) => i)),
    task: Int32Array.from(rows.map((r) => tasks.indexOf(r.task))),
    trial: Int32Array.from(rows.map((r) => r.trial)),
    recorded: Float64Array.from(rows.map((r) => r.recorded)),
    reward: Float64Array.from(rows.map((r) => r.reward ?? NaN)),
    flags: Uint8Array.from(rows.map((r) => r.flags ?? (r.reward === null ? LIBRARY_FLAG.error : 0))),
  };
}

const run = (file: string, benchmark: string, domain: string, model: string | null = null): LibraryRun => ({
  file,
  benchmark,
  domain,
  model,
  userModel: null,
  dataVersion: benchmark === 'tau2' ? 'a2c0247' : '14bf0ef',
  contentHash: file,
});

// Two τ-bench airline runs (tasks 0–2, 3 trials) and one τ² telecom run with text task ids and an infrastructure error.
const rows: Row[] = [];
const rewards = [
  [1, 1, 0, 0, 0, 0, 1, 0, 1],
  [1, 1, 1, 0, 0, 0, 0, 1, 1],
];
rewards.forEach((rs, r) =>
  rs.forEach((x, i) => rows.push({ run: r, task: String(i % 3), trial: Math.floor(i / 3), reward: r === 1 && i === 8 ? null : x, recorded: x })),
);
for (const [task, reward, flags] of [
  ['[b]', 1, 0],
  ['[b]', 0, LIBRARY_FLAG.disagree],
  ['[a]', 0, LIBRARY_FLAG.noopReference],
  ['[a]', 0, LIBRARY_FLAG.infrastructure],
] as const)
  rows.push({ run: 2, task, trial: 0, reward, recorded: 1, flags });
const T = table([run('runs/a.json', 'tau-bench', 'airline'), run('runs/b.json', 'tau-bench', 'airline'), run('tau2/t', 'tau2', 'telecom', 'gpt')], rows);

describe('the library’s numbers', () => {
  it('gives each run the pass^k its own overview computes, with what it is over', () => {
    const board = leaderboard(T, NO_LIBRARY_FILTERS);
    const byFile = new Map(board.map((r) => [r.info.file, r]));
    // Run b's last episode could not be judged: a failed trial, as in the overview.
    const b = rows.filter((r) => r.run === 1).map((r) => ({ taskId: Number(r.task), trial: r.trial, reward: r.reward ?? 0 }));
    expect(byFile.get('runs/b.json')!.recomputed).toEqual(passHatK(b));
    expect(byFile.get('runs/b.json')!.recorded).toEqual(
      passHatK(rows.filter((r) => r.run === 1).map((r) => ({ taskId: Number(r.task), trial: r.trial, reward: r.recorded }))),
    );
    expect(byFile.get('runs/b.json')).toMatchObject({ episodes: 9, tasks: 3, trials: 3, passes: 4, errors: 1 });
    const t2 = byFile.get('tau2/t')!;
    expect(t2.recomputed).toEqual(
      tau2PassHatK(
        [
          { task: '[b]', reward: 1, termination: '' },
          { task: '[b]', reward: 0, termination: '' },
          { task: '[a]', reward: 0, termination: '' },
          { task: '[a]', reward: 0, termination: 'infrastructure_error' },
        ],
        null,
      ),
    );
    expect(t2).toMatchObject({ tasks: 2, trials: 1, disagree: 1 });
    expect(board[0]!.recomputed[0]!.value).toBeGreaterThanOrEqual(board[1]!.recomputed[0]!.value);
    expect(leaderboard(T, { ...NO_LIBRARY_FILTERS, benchmark: 'tau2' }).map((r) => r.info.file)).toEqual(['tau2/t']);
    expect(leaderboard(T, { ...NO_LIBRARY_FILTERS, model: '(none)' })).toHaveLength(2);
  });

  it('τ²: k up to the run’s num_trials as its overview counts it, each task over its own trials; an index without the column says why it goes further', () => {
    // Task x: 4 trials (3 pass), task y: 5 trials (one an infrastructure error: 4 count, 2 pass); info.num_trials 3.
    const sims: Row[] = [];
    [1, 1, 0, 1].forEach((reward, trial) => sims.push({ run: 0, task: 'x', trial, reward, recorded: reward }));
    [0, 1, 1, 0, 1].forEach((reward, trial) =>
      sims.push({ run: 0, task: 'y', trial, reward, recorded: reward, flags: trial === 4 ? LIBRARY_FLAG.infrastructure : 0 }),
    );
    const headers: EpisodeHeader[] = sims.map((r, index) => ({
      index,
      taskId: r.task === 'x' ? 0 : 1,
      trial: r.trial,
      recordedReward: r.recorded,
      turns: 2,
      problem: null,
      extra: { [TAU2_TASK_KEY]: r.task, termination_reason: r.flags === LIBRARY_FLAG.infrastructure ? 'infrastructure_error' : 'user_stop' },
      fingerprint: null,
    }));
    const summaries = sims.map((r, index) => ({ index, reward: r.reward, error: null }) as EpisodeSummary);
    const board = (numTrials?: number | null) =>
      leaderboard(table([{ ...run('t2', 'tau2', 'airline'), ...(numTrials !== undefined && { numTrials }) }], sims), NO_LIBRARY_FILTERS)[0]!;
    // The run's own overview (src/features/overview/run-summary.tsx) with info.num_trials 3.
    const overview = tau2Pass(headers, summaries, 3);
    expect(overview.recomputed.map((p) => p.k)).toEqual([1, 2, 3]);
    const three = board(3);
    expect(three.recomputed).toEqual(overview.recomputed);
    expect(three.recorded).toEqual(overview.recorded);
    expect(three).toMatchObject({ tasks: 2, trials: 3, trialsNote: null });
    // A file recording no num_trials: the fewest trials any task has, as the overview does too; nothing to say.
    expect(board(null).recomputed).toEqual(tau2Pass(headers, summaries, null).recomputed);
    expect(board(null)).toMatchObject({ trials: 4, trialsNote: null });
    // An older runs.parquet without the column: the former behaviour (k up to 4), with the reason.
    const old = board();
    expect(old.recomputed.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(old.recomputed.slice(0, 3)).toEqual(overview.recomputed);
    expect(old.trialsNote).toBe(NO_NUM_TRIALS);
    expect(old.trialsNote).toMatch(/no num_trials column/);
  });

  it('lists tasks no run passes, no-op references, disagreements in several runs and split trials', () => {
    const grids = taskGrids(T, NO_LIBRARY_FILTERS);
    expect(grids.map((g) => [g.benchmark, g.domain, g.tasks.map((t) => t.task)])).toEqual([
      ['tau-bench', 'airline', ['0', '1', '2']],
      ['tau2', 'telecom', ['[a]', '[b]']],
    ]);
    const h = taskHealth(grids);
    expect(h.noPass.map((t) => t.task)).toEqual(['[a]']);
    expect(h.noopReference.map((t) => t.task)).toEqual(['[a]']);
    expect(h.disagree).toEqual([]);
    expect(h.split.map((t) => t.task)).toContain('0');
    const cell = grids[0]!.tasks[0]!.cells.find((c) => c.run === 0)!;
    expect(cell).toMatchObject({ passes: 2, trials: 3 });
  });

  it('names a task for the overview’s filter as the run’s rows are numbered', () => {
    expect(overviewTaskId(T, 0, '2')).toBe(2);
    expect(overviewTaskId(T, 2, '[b]')).toBe(1);
    expect(overviewTaskId(T, 2, '[nope]')).toBe(null);
  });
});

const file = (path: string): FolderFile => ({ path, file: new File(['[]'], path.split('/').at(-1)!) });

describe('opening a run of the library', () => {
  const files = [
    file('lib/runs/a.json'),
    file('lib/other/a.json'),
    file('lib/tau2/t/results.json'),
    file('lib/tau2/t/simulations/1.json'),
    file('lib/runs.parquet'),
  ];

  it('finds a run’s results file, or its τ² run folder, in the picked folder by the end of its path', () => {
    expect(findRunFiles(files, 'runs/a.json')).toEqual({ kind: 'file', file: files[0] });
    expect(findRunFiles(files, '/home/me/lib/other/a.json')).toEqual({ kind: 'file', file: files[1] });
    const folder = findRunFiles(files, 'tau2/t');
    expect(folder?.kind).toBe('folder');
    expect(folder?.kind === 'folder' && folder.files.map((f) => f.path)).toEqual(['t/results.json', 't/simulations/1.json']);
    expect(findRunFiles(files, 'elsewhere/z.json')).toBe(null);
  });

  it('reads a name from the index’s own folder: ../ climbs within the picked folder, never out of it', () => {
    // An index in lib/index/ names lib/other/a.json `../other/a.json` (the tail alone would pick either a.json).
    expect(findRunFiles(files, '../other/a.json', 'lib/index')).toEqual({ kind: 'file', file: files[1] });
    expect(findRunFiles(files, './runs/a.json', 'lib')).toEqual({ kind: 'file', file: files[0] });
    const folder = findRunFiles(files, '../tau2/t', 'lib/index');
    expect(folder?.kind === 'folder' && folder.files.map((f) => f.path)).toEqual(['t/results.json', 't/simulations/1.json']);
    expect(findRunFiles(files, '../../outside/a.json', 'lib')).toBe(null);
    expect(underBase('lib', '../x.json')).toBe(null);
    expect(underBase('lib/index', '../x.json')).toBe('lib/x.json');
  });

  it('opens the run at the task through the overview’s filter, or says in words why it cannot', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    store.getState().openLibraryFolder('lib', files);
    const id = sent(calls, 'open-library')[0]!.id;
    store.getState().receive({ type: 'open-library', id, table: T, problems: [], error: null, via: 'lib/runs.parquet' });
    expect(store.getState().libraryShown).toBe(true);
    store.getState().openLibraryRun(2, '[b]');
    const open = sent(calls, 'open-run').at(-1)!;
    expect(open.source.kind).toBe('folder');
    expect(store.getState().linkView?.filters.taskId).toBe(1);
    expect(store.getState().libraryShown).toBe(false);

    store.getState().openLibraryFile(new File(['x'], 'runs.parquet'));
    const id2 = sent(calls, 'open-library').at(-1)!.id;
    store.getState().receive({ type: 'open-library', id: id2, table: T, problems: [], error: null, via: 'runs.parquet' });
    const before = sent(calls, 'open-run').length;
    store.getState().openLibraryRun(0, '1');
    expect(sent(calls, 'open-run')).toHaveLength(before);
    expect(store.getState().notices.at(-1)?.text).toMatch(/Only the index was opened.*not reachable/);
  });

  it('answers only the newest library request', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    store.getState().openLibraryFolder('lib', files);
    store.getState().openLibraryFolder('lib', files);
    const [first, second] = sent(calls, 'open-library');
    store.getState().receive({ type: 'open-library', id: first!.id, table: T, problems: [], error: null, via: 'old' });
    expect(store.getState().library.table).toBe(null);
    store.getState().receive({ type: 'open-library', id: second!.id, table: null, problems: [], error: 'broken', via: '' });
    expect(store.getState().library.error).toBe('broken');
  });
});

describe('the library’s link', () => {
  it('carries where the library is, the tab and the filters, and back', () => {
    const l = {
      origin: { kind: 'url', url: 'https://example.org/runs & more/runs.parquet' },
      tab: 'health',
      filters: { ...NO_LIBRARY_FILTERS, domain: 'airline', model: 'gpt-4.1 & co' },
    } as const;
    const hash = formatLibraryLink(l);
    expect(hash).toBe('#library=https://example.org/runs%20%26%20more/runs.parquet&lib-tab=health&lib-domain=airline&lib-model=gpt-4.1%20%26%20co');
    expect(parseLibraryLink(hash)).toEqual(l);
    expect(parseLibraryLink('#library-folder=lib&lib-tab=nonsense')).toEqual({
      origin: { kind: 'folder', name: 'lib' },
      tab: 'leaderboard',
      filters: NO_LIBRARY_FILTERS,
    });
    expect(parseLibraryLink('#run=x.json')).toBe(null);
    // A run of the library shown: its file as the index names it, the run's place beside it in the same fragment.
    const inRun = `${formatLibraryLink({ ...l, run: '../tau2/a b.json' })}&episode=3&task=2`;
    expect(inRun).toContain('&lib-run=../tau2/a%20b.json&episode=3');
    expect(parseLibraryLink(inRun)).toEqual({ ...l, run: '../tau2/a b.json' });
    expect(parseLink(inRun)).toMatchObject({ run: null, episode: 3, task: 2 });
  });

  it('asks for a local folder a link names, keeping its view', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    store.getState().restoreLibrary({ kind: 'folder', name: 'lib' }, 'heatmap', { ...NO_LIBRARY_FILTERS, benchmark: 'tau2' });
    expect(store.getState().libraryRequest).toEqual({ kind: 'folder', name: 'lib' });
    expect(store.getState().libraryShown).toBe(true);
    expect(sent(calls, 'open-library')).toEqual([]);
    store.getState().openLibraryFolder('lib', []);
    expect(store.getState().libraryTab).toBe('heatmap');
    expect(store.getState().libraryFilters.benchmark).toBe('tau2');
    expect(store.getState().libraryRequest).toBe(null);
  });

  it('opens a library URL on the app’s own origin or an agreed host, and asks before any other', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    store.getState().restoreLibrary({ kind: 'url', url: 'https://elsewhere.example/runs.parquet' }, 'leaderboard', NO_LIBRARY_FILTERS);
    expect(sent(calls, 'open-library')).toEqual([]);
    expect(store.getState().runRequest).toEqual({ url: 'https://elsewhere.example/runs.parquet', library: true });
    store.getState().answerRunRequest(true);
    expect(sent(calls, 'open-library').map((m) => m.source)).toEqual([{ kind: 'url', url: 'https://elsewhere.example/runs.parquet' }]);
  });
});
