/**
 * The library's views come from the worker (`library-stats`, issue #35 class 8): asked for once the rows are in and
 * again when the filters change or more leaderboard rows are wanted; only the newest request's answer is kept, and
 * the worker's answer is core's `libraryStats` over the table it keeps.
 */
import { describe, expect, it } from 'vitest';
import { libraryStats, NO_LIBRARY_FILTERS, TableBuilder, type LibraryRun } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { BOARD_ROWS } from '../../src/core/contract';
import { fakePort, sent } from '../support/fake-port';

const run = (file: string, domain: string): LibraryRun => ({
  file,
  benchmark: 'tau2',
  domain,
  model: null,
  userModel: null,
  dataVersion: null,
  contentHash: file,
});
const b = new TableBuilder();
for (let r = 0; r < 30; r++)
  for (let task = 0; task < 12; task++)
    b.add({
      run: run(`run-${r}`, r % 2 ? 'airline' : 'retail'),
      index: task,
      task: String(task),
      trial: 0,
      recorded: 1,
      reward: (r + task) % 3 ? 1 : 0,
      error: false,
      infrastructure: false,
      disagree: false,
      findingKinds: task === 4 ? ['no-op-reference'] : [],
    });
const T = b.finish();

describe('the library’s views, computed in the worker', () => {
  it('asks once the rows are in and when the filters change; keeps the newest answer only', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    store.getState().openLibraryFile(new File(['x'], 'runs.parquet'));
    const id = sent(calls, 'open-library')[0]!.id;
    expect(sent(calls, 'library-stats')).toHaveLength(0);
    store.getState().receive({ type: 'open-library', id, table: T, problems: [], error: null, via: 'runs.parquet' });
    const first = sent(calls, 'library-stats')[0]!;
    expect(first).toMatchObject({ id, filters: NO_LIBRARY_FILTERS, rows: BOARD_ROWS });
    expect(store.getState().libraryStats.pending).toBe(true);
    store.getState().setLibraryFilters({ domain: 'airline' });
    const second = sent(calls, 'library-stats')[1]!;
    expect(second.filters.domain).toBe('airline');
    // The older answer arrives late: dropped.
    store.getState().receive({ type: 'library-stats', id, seq: first.seq, stats: libraryStats(T, first.filters, first.rows), error: null });
    expect(store.getState().libraryStats.stats).toBeNull();
    store.getState().receive({ type: 'library-stats', id, seq: second.seq, stats: libraryStats(T, second.filters, second.rows), error: null });
    const st = store.getState().libraryStats;
    expect(st.pending).toBe(false);
    expect(st.stats?.board.map((g) => g.key)).toEqual(['tau2\u0000airline']);
    store.getState().requestLibraryStats(BOARD_ROWS * 2);
    expect(sent(calls, 'library-stats')[2]).toMatchObject({ rows: BOARD_ROWS * 2, filters: { domain: 'airline' } });
  });

  it('sends the first rows of each group with their intervals, the grids as typed arrays, health as places in them', () => {
    const s = libraryStats(T, NO_LIBRARY_FILTERS, 5);
    expect(s.runs).toBe(30);
    expect(s.board.map((g) => [g.key, g.total, g.ranked, g.rows.length])).toEqual([
      ['tau2\u0000airline', 15, 15, 5],
      ['tau2\u0000retail', 15, 15, 5],
    ]);
    expect(s.board[0]!.rows.every((r) => r.intervals.length === r.recomputed.length && r.intervals.length > 0)).toBe(true);
    const g = s.grids[0]!;
    expect([g.tasks.length, g.runs.length, g.passes.length]).toEqual([12, 15, 180]);
    // Each cell is its run's passes of that task.
    const col = 3;
    const runRows = [...T.run.keys()].filter((i) => T.run[i] === g.runs[col] && T.tasks[T.task[i]!] === g.tasks[0]!.task);
    expect(g.trials[col]).toBe(runRows.length);
    expect(g.passes[col]).toBe(runRows.filter((i) => T.reward[i] === 1).length);
    expect(s.health.noopReference.map((p) => s.grids[p.grid]!.tasks[p.task]!.task)).toEqual(['4', '4']);
    expect(s.audit.filter((f) => f.kind === 'gold-no-op').map((f) => [f.domain, f.task])).toEqual([
      ['airline', '4'],
      ['retail', '4'],
    ]);
  });
});
