import { describe, expect, it } from 'vitest';
import type { EpisodeView } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { otherTrials } from '../../src/store/trials-slice';
import { says } from '../support/worker-says';
import { fakePort, sent } from '../support/fake-port';
import { TEST_DETECTION } from '../support/store-fixtures';

describe('comparing two trials in the store', () => {
  const { port, calls } = fakePort();
  const headers = [0, 1, 2, 0, 1, 0].map((taskId, index) => ({
    index,
    taskId,
    trial: index < 3 ? 0 : 1,
    recordedReward: 1,
    turns: 1,
    problem: null,
    extra: {},
    fingerprint: String(index).repeat(64),
  }));

  it('asks for the other trial’s view by its address and keeps the answer apart from the episode view', () => {
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('x');
    s().receive(says.opened(1, 'x.json', headers));
    s().receive(says.detected(1, TEST_DETECTION, { kind: 'sample', label: '' }, true));
    expect(otherTrials(s().runs.a.headers, 0)).toEqual([3, 5]);
    expect(otherTrials(s().runs.a.headers, 2)).toEqual([]);
    s().select(0);
    expect(sent(calls, 'view').at(-1)).toEqual({ type: 'view', run: 1, episode: 0 });
    s().compareWithTrial(2); // another task: refused
    expect(s().trialCompare).toBeNull();
    s().compareWithTrial(5);
    expect(sent(calls, 'view').at(-1)).toEqual({ type: 'view', run: 1, episode: 5 });
    const other = { index: 5 } as EpisodeView;
    s().receive(says.view(1, 5, other));
    expect(s().trialCompare?.view).toBe(other);
    expect(s().view).toBeNull();
    const mine = { index: 0, steps: [] } as unknown as EpisodeView;
    s().receive(says.view(1, 0, mine));
    expect(s().view).toBe(mine);
    expect(s().trialCompare?.view).toBe(other);
    // Another run's episode 5 is not this one's.
    s().receive(says.view(2, 5, mine));
    expect(s().trialCompare?.view).toBe(other);
    s().select(1);
    expect(s().trialCompare).toBeNull();
  });
});
