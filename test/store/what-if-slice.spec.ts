import { describe, expect, it } from 'vitest';
import type { StepEdit, Tau2WhatIfView } from '../../src/core/contract';
import { createAppStore } from '../../src/store/app-store';
import { fakePort, sent } from '../support/fake-port';
import { says } from '../support/worker-says';

const header = (index: number) => ({
  index,
  taskId: 0,
  trial: 0,
  recordedReward: 0,
  turns: 1,
  problem: null,
  extra: {},
  fingerprint: String(index).repeat(64),
});

const TAU2 = { domain: 'mock', solo: false, numTrials: null, notes: [] };

describe('a τ² simulation’s what-if in the store (one what-if for every benchmark)', () => {
  it('sends the edits of the simulation on screen, shows only the latest answer, keeps them per simulation, judges them again with it', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('x');
    s().receive(says.tau2Opened(1, 'x.json', [header(0), header(1)], TAU2));
    s().receive(says.tau2Ready(1));
    s().select(0);
    expect(sent(calls, 'view').at(-1)).toEqual({ type: 'view', run: 1, episode: 0 });
    const drop: StepEdit[] = [{ messageIndex: 4, callIndex: 0, remove: true }];
    const text: StepEdit[] = [...drop, { messageIndex: 6, content: 'your savings: 23,553' }];
    s().runWhatIf(drop);
    s().runWhatIf(text);
    expect(sent(calls, 'what-if')).toEqual([
      { type: 'what-if', run: 1, episode: 0, id: 1, edits: drop },
      { type: 'what-if', run: 1, episode: 0, id: 2, edits: text },
    ]);
    const older = { benchmark: 'tau2', rewardAfter: 0 } as Tau2WhatIfView;
    const newer = { benchmark: 'tau2', rewardAfter: 1 } as Tau2WhatIfView;
    // An answer to an older request, or about another run, is not shown.
    s().receive({ type: 'what-if', run: 1, episode: 0, id: 1, view: older, error: null });
    s().receive({ type: 'what-if', run: 2, episode: 0, id: 2, view: older, error: null });
    expect(s().whatIf?.view).toBeNull();
    s().receive({ type: 'what-if', run: 1, episode: 0, id: 2, view: newer, error: null });
    expect(s().whatIf).toMatchObject({ index: 0, edits: text, view: newer, error: null });
    // The same simulation asked for again (its data changed) is judged again with its edits.
    s().refreshView();
    expect(sent(calls, 'what-if').at(-1)).toEqual({ type: 'what-if', run: 1, episode: 0, id: 3, edits: text });
    s().receive({ type: 'what-if', run: 1, episode: 0, id: 3, view: null, error: 'the arguments of … are not valid JSON' });
    expect(s().whatIf?.error).toBe('the arguments of … are not valid JSON');
    // Another simulation: no what-if on screen, nothing sent for it; the first one's edits are kept for it.
    s().select(1);
    expect(s().whatIf).toBeNull();
    expect(sent(calls, 'what-if')).toHaveLength(3);
    expect(s().whatIfEdits[0]).toEqual(text);
    // No edits left (the last one undone) or a reset: the recorded simulation.
    s().runWhatIf(drop);
    expect(s().whatIf?.index).toBe(1);
    s().runWhatIf([]);
    expect(s().whatIf).toBeNull();
    s().runWhatIf(drop);
    s().clearWhatIf();
    expect(s().whatIf).toBeNull();
    // Back on the first simulation: its edits are judged with it again.
    s().select(0);
    expect(sent(calls, 'what-if').at(-1)).toMatchObject({ episode: 0, edits: text });
  });
});
