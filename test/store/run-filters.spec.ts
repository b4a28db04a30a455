import { describe, expect, it } from 'vitest';
import type { EpisodeHeader } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { fakePort, sent } from '../support/fake-port';
import { says } from '../support/worker-says';

/** Issue 33: a search in one run never empties another; what a new run keeps of the filters is chosen, and shown. */
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
const headers = (n: number): EpisodeHeader[] => Array.from({ length: n }, (_, i) => header(i));

describe('the overview’s filters when another run opens', () => {
  it('an answer to a search of the run before never lands on a run opened with no search (the "0 of 50" with an empty box)', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', headers(3)));
    s().setQuery('Lakeview');
    // Another run opened at a task, with no search (as the library opens one).
    store.setState({ linkView: { filters: { failedOnly: false, reason: null, taskId: 2 }, sort: { key: 'index', desc: false }, query: '', label: null } });
    s().openSample('b');
    s().receive(says.opened(2, 'b.json', headers(50)));
    expect(s().query).toBe('');
    // Every search sent for run 2 so far is answered: none of them may set hits.
    for (const q of sent(calls, 'search').filter((m) => m.run === 2)) s().receive({ type: 'search', run: 2, id: q.id, query: q.query, indices: [] });
    expect(s().hits).toBeNull();
    expect(s().filters.taskId).toBe(2);
  });

  it('keeps the search, failed-only and a label across runs; drops the task and reason, which belong to the run', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('a');
    s().receive(says.opened(1, 'a.json', headers(3)));
    s().setQuery('refund');
    s().setFilters({ failedOnly: true, reason: 'db-mismatch', taskId: 1 });
    s().setLabelFilter('labelled');
    s().openSample('b');
    s().receive(says.opened(2, 'b.json', headers(4)));
    expect(s().filters).toEqual({ failedOnly: true, reason: null, taskId: null });
    expect(s().query).toBe('refund');
    expect(s().labelFilter).toBe('labelled');
    // The kept search is asked of the new run, and its answer is taken.
    const q = sent(calls, 'search').at(-1)!;
    expect(q).toMatchObject({ run: 2, query: 'refund' });
    s().receive({ type: 'search', run: 2, id: q.id, query: q.query, indices: [1] });
    expect([...(s().hits ?? [])]).toEqual([1]);
    s().clearFilters();
    expect([s().query, s().labelFilter, s().hits]).toEqual(['', null, null]);
  });
});
