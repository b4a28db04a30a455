import { describe, expect, it } from 'vitest';
import type { EpisodeView } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { otherTrials } from '../../src/store/trials-slice';
import { fakePort } from '../support/fake-port';

describe('comparing two trials in the store', () => {
  const views: [number, number, number][] = [];
  const { port } = fakePort({ view: (run, id, index) => void views.push([run, id, index]) });
  const headers = [0, 1, 2, 0, 1, 0].map((taskId, index) => ({ index, taskId, trial: index < 3 ? 0 : 1, recordedReward: 1, turns: 1, problem: null, extra: {}, fingerprint: String(index).repeat(64) }));

  it('asks for the other trial’s view under its own id and keeps the answer apart from the episode view', () => {
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('x');
    s().runOpened(1, 'x.json', 'retail', 'why', headers);
    store.setState({ detection: {} as never });
    expect(otherTrials(s(), 0)).toEqual([3, 5]);
    expect(otherTrials(s(), 2)).toEqual([]);
    s().select(0);
    const episodeId = views.at(-1)![1];
    s().compareWithTrial(2); // another task: refused
    expect(s().trialCompare).toBeNull();
    s().compareWithTrial(5);
    const [run, id, index] = views.at(-1)!;
    expect([run, index]).toEqual([1, 5]);
    expect(id).not.toBe(episodeId);
    const other = { index: 5 } as EpisodeView;
    s().viewArrived(1, id, other, null);
    expect(s().trialCompare?.view).toBe(other);
    expect(s().view).toBeNull();
    const mine = { index: 0, steps: [] } as unknown as EpisodeView;
    s().viewArrived(1, episodeId, mine, null);
    expect(s().view).toBe(mine);
    expect(s().trialCompare?.view).toBe(other);
    s().select(1);
    expect(s().trialCompare).toBeNull();
  });
});
