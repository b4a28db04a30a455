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

describe('τ² what-if in the store', () => {
  it('sends the edits of the simulation on screen, shows only the latest answer, keeps them per simulation and drops them on another', () => {
    const { port, calls } = fakePort();
    const store = createAppStore(port);
    const s = store.getState;
    s().openSample('x');
    s().receive(says.opened(1, 'x.json', [header(0), header(1)]));
    s().askTau2Sim(0);
    const drop: StepEdit[] = [{ messageIndex: 4, callIndex: 0, remove: true }];
    const text: StepEdit[] = [...drop, { messageIndex: 6, content: 'your savings: 23,553' }];
    s().runTau2WhatIf(drop);
    s().runTau2WhatIf(text);
    expect(sent(calls, 'tau2-what-if')).toEqual([
      { type: 'tau2-what-if', run: 1, episode: 0, id: 1, edits: drop },
      { type: 'tau2-what-if', run: 1, episode: 0, id: 2, edits: text },
    ]);
    const older = { rewardAfter: 0 } as Tau2WhatIfView;
    const newer = { rewardAfter: 1 } as Tau2WhatIfView;
    // An answer to an older request, or about another run, is not shown.
    s().receive({ type: 'tau2-what-if', run: 1, episode: 0, id: 1, view: older, error: null });
    s().receive({ type: 'tau2-what-if', run: 2, episode: 0, id: 2, view: older, error: null });
    expect(s().tau2WhatIf?.view).toBeNull();
    s().receive({ type: 'tau2-what-if', run: 1, episode: 0, id: 2, view: newer, error: null });
    expect(s().tau2WhatIf).toMatchObject({ episode: 0, edits: text, view: newer, error: null });
    // The same simulation asked for again (its data arrived) is judged again with its edits.
    s().askTau2Sim(0);
    expect(sent(calls, 'tau2-what-if').at(-1)).toEqual({ type: 'tau2-what-if', run: 1, episode: 0, id: 3, edits: text });
    s().receive({ type: 'tau2-what-if', run: 1, episode: 0, id: 3, view: null, error: 'the arguments of … are not valid JSON' });
    expect(s().tau2WhatIf?.error).toBe('the arguments of … are not valid JSON');
    // Another simulation: no what-if, nothing sent for it.
    s().askTau2Sim(1);
    expect(s().tau2WhatIf).toBeNull();
    expect(sent(calls, 'tau2-what-if')).toHaveLength(3);
    // No edits left (the last one undone) or a reset: the recorded simulation.
    s().runTau2WhatIf(drop);
    expect(s().tau2WhatIf?.episode).toBe(1);
    s().runTau2WhatIf([]);
    expect(s().tau2WhatIf).toBeNull();
    s().runTau2WhatIf(drop);
    s().clearTau2WhatIf();
    expect(s().tau2WhatIf).toBeNull();
  });
});
