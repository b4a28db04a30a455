/** What-if edits in shared links: the decoder of untrusted edits (bad shapes refused in a sentence), and a τ² simulation's what-if carried by its link. */
import { describe, expect, it } from 'vitest';
import { TAU2_TASK_KEY, type EpisodeHeader, type StepEdit } from '../../src/core/contract';
import type { FromWorker } from '../../src/protocol/messages';
import { checkEdits, MAX_EDITS, MAX_EDIT_TEXT, readShareContext, type SharedContext } from '../../src/protocol/share-context';
import { createAppStore } from '../../src/store/app-store';
import { decodeEdits, encodeEdits, parseLink } from '../../src/store/link';
import { memoryNotes } from '../../src/store/notes-port';
import { encodePayload } from '../../src/formats/share-codec';
import { sharePayload, splitSharedText, decodeSharedEpisode } from '../../src/worker/shared-episode';
import { fakePort, sent } from '../support/fake-port';
import { says } from '../support/worker-says';

/** τ² edits as the simulation screen makes them: a call dropped, a call inserted on the user's device, a message's text. */
const TAU2_EDITS: StepEdit[] = [
  { messageIndex: 13, callIndex: 0, remove: true },
  { messageIndex: 20, callIndex: 1, insert: true, name: 'toggle_airplane_mode', kwargsJson: '{}', requestor: 'user' },
  { messageIndex: 22, content: 'Your refund is $286.' },
];

describe('what-if edits from untrusted JSON', () => {
  it('τ² edits (callIndex, requestor) and τ-bench edits read back exactly', () => {
    expect(checkEdits(TAU2_EDITS)).toEqual({ edits: TAU2_EDITS });
    expect(decodeEdits(encodeEdits(TAU2_EDITS))).toEqual(TAU2_EDITS);
    const v1: StepEdit[] = [
      { messageIndex: 7, kwargsJson: '{"order_id": "#W1"}' },
      { messageIndex: 4, remove: true },
    ];
    expect(checkEdits(v1)).toEqual({ edits: v1 });
    expect(checkEdits([])).toEqual({ edits: [] });
  });

  it.each<[string, unknown, string]>([
    ['not a list', { messageIndex: 1 }, 'they are an object, not a list of edits'],
    ['a number in the list', [3], 'edit 1 is a number, not an edit'],
    ['null in the list', [{ messageIndex: 1, remove: true }, null], 'edit 2 is null, not an edit'],
    ['a list in the list', [[1]], 'edit 1 is a list, not an edit'],
    ['no message index', [{ remove: true }], 'edit 1 names no message (it has no messageIndex)'],
    ['a negative message index', [{ messageIndex: -1, remove: true }], 'edit 1 names no message: its messageIndex is a number, not a whole number ≥ 0'],
    ['a fractional message index', [{ messageIndex: 1.5 }], 'edit 1 names no message: its messageIndex is a number, not a whole number ≥ 0'],
    ['a message index as text', [{ messageIndex: '3' }], 'edit 1 names no message: its messageIndex is a string, not a whole number ≥ 0'],
    ['a call index as text', [{ messageIndex: 13, callIndex: 'the third', remove: true }], 'edit 1 has callIndex set to a string, not a whole number ≥ 0'],
    ['a negative call index', [{ messageIndex: 13, callIndex: -2, remove: true }], 'edit 1 has callIndex set to a number, not a whole number ≥ 0'],
    [
      'an unknown requestor',
      [{ messageIndex: 2, insert: true, name: 'x', requestor: 'admin' }],
      'edit 1 has requestor set to a string, neither "assistant" nor "user"',
    ],
    ['remove as text', [{ messageIndex: 2, remove: 'yes' }], 'edit 1 has remove set to a string, not true or false'],
    ['insert as a number', [{ messageIndex: 2, insert: 1, name: 'x' }], 'edit 1 has insert set to a number, not true or false'],
    ['arguments as an object', [{ messageIndex: 2, kwargsJson: { a: 1 } }], 'edit 1 has kwargsJson set to an object, not text'],
    ['a field no edit has', [{ messageIndex: 2, drop: true }], 'edit 1 has a field no edit has ("drop")'],
    ['a prototype key', JSON.parse('[{"messageIndex": 2, "__proto__": {"remove": true}}]'), 'edit 1 has a field no edit has ("__proto__")'],
  ])('%s: refused in a sentence', (_, value, error) => {
    expect(checkEdits(value)).toEqual({ error });
  });

  it('refuses more edits, or longer text, than a link this app made carries', () => {
    const many = Array.from({ length: MAX_EDITS + 1 }, (_, i) => ({ messageIndex: i, remove: true }));
    expect(checkEdits(many)).toEqual({ error: `there are ${MAX_EDITS + 1} of them, more than the ${MAX_EDITS} a link may carry` });
    expect(checkEdits(many.slice(0, MAX_EDITS))).toHaveProperty('edits');
    const long = 'x'.repeat(MAX_EDIT_TEXT + 1);
    expect(checkEdits([{ messageIndex: 0, content: long }])).toEqual({
      error: `edit 1 has content of ${MAX_EDIT_TEXT + 1} characters, more than the ${MAX_EDIT_TEXT} an edit may hold`,
    });
  });

  it('in a shared context the bad edits are left out with the reason; the file, index and step stay', () => {
    const line = JSON.stringify({ v: 2, file: 'run.json', index: 9, step: 4, notes: null, edits: [{ messageIndex: 13, callIndex: 'x', remove: true }] });
    expect(readShareContext(line)).toEqual({
      ctx: { file: 'run.json', index: 9, step: 4, notes: null, edits: [] },
      problems: ['its what-if edits were left out: edit 1 has callIndex set to a string, not a whole number ≥ 0'],
    });
  });

  it('in a whatif= parameter they are refused with the reason', () => {
    expect(() => decodeEdits(encodePayload(JSON.stringify([{ messageIndex: 1, requestor: 'root' }])))).toThrow(
      'the what-if edits in this link were left out: edit 1 has requestor set to a string, neither "assistant" nor "user"',
    );
  });
});

const tau2Opened = (run: number, headers: readonly EpisodeHeader[], shared?: SharedContext): FromWorker<'run-opened'> =>
  says.tau2Opened(run, 'run.json', headers, { domain: 'airline', solo: false, numTrials: null, notes: [] }, shared);

const h = (index: number): EpisodeHeader => ({
  index,
  taskId: index,
  trial: 0,
  recordedReward: 0,
  turns: 20,
  problem: null,
  extra: { [TAU2_TASK_KEY]: String(index) },
  fingerprint: String(index).padStart(64, 'e'),
});

describe('a τ² simulation’s what-if in its shared link', () => {
  it('the link carries the simulation’s edits; a fresh browser has them judged with the simulation', () => {
    // Shared: simulation 9 of an open τ² run, with a what-if on screen.
    const first = fakePort();
    const store = createAppStore(first.port, undefined, memoryNotes());
    store.getState().openFile(new File(['[]'], 'run.json'));
    store.getState().receive(
      tau2Opened(
        1,
        Array.from({ length: 12 }, (_, i) => h(i)),
      ),
    );
    store.getState().select(9);
    store.getState().runWhatIf(TAU2_EDITS);
    store.getState().shareEpisode();
    const ask = sent(first.calls, 'share-link').at(-1)!;
    expect(ask.context).toMatchObject({ file: 'run.json', index: 9, edits: TAU2_EDITS });

    // The worker writes the envelope; a fresh browser opens it.
    const payload = sharePayload('{"id": "sim-9"}', ask.context);
    const { context } = splitSharedText(decodeSharedEpisode(payload));
    const shared = readShareContext(context!);
    expect(shared).toEqual({ ctx: ask.context, problems: [] });
    const second = fakePort();
    const fresh = createAppStore(second.port, undefined, memoryNotes());
    fresh.getState().restore(parseLink(`#ep=${payload}&episode=0&step=0`));
    const run = fresh.getState().pending.a!.run;
    fresh.getState().receive(tau2Opened(run, [h(0)], shared));
    expect(fresh.getState().selected).toBe(0);
    expect(fresh.getState().whatIfEdits).toEqual({ 0: TAU2_EDITS });
    // Once the data is there the simulation is asked for: the edits are judged with it.
    fresh.getState().receive(says.tau2Ready(run));
    expect(sent(second.calls, 'what-if').map((m) => [m.run, m.episode, m.edits])).toEqual([[run, 0, TAU2_EDITS]]);
  });

  it('a link whose edits were refused opens the simulation as recorded, the reason kept for the page', () => {
    const line = JSON.stringify({ v: 2, file: 'run.json', index: 9, step: 0, notes: null, edits: [{ messageIndex: 13, callIndex: 'x' }] });
    const shared = readShareContext(line);
    const { port, calls } = fakePort();
    const store = createAppStore(port, undefined, memoryNotes());
    store.getState().restore(parseLink(`#ep=${encodePayload('x')}&episode=0&step=0`));
    const run = store.getState().pending.a!.run;
    store.getState().receive(tau2Opened(run, [h(0)], shared));
    expect(store.getState().selected).toBe(0);
    expect(store.getState().whatIfEdits).toEqual({});
    store.getState().receive(says.tau2Ready(run));
    expect(sent(calls, 'what-if')).toEqual([]);
    expect(sent(calls, 'view').map((m) => m.episode)).toEqual([0]);
    expect(store.getState().sharedFrom?.problems).toEqual(['its what-if edits were left out: edit 1 has callIndex set to a string, not a whole number ≥ 0']);
  });
});
