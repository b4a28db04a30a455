import { describe, expect, it } from 'vitest';
import { KNOWN_DATA_VERSIONS } from '../../../src/core/model/data/versions';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { InspectSession } from '../../../src/core/session/session';
import { hasShared, readShared, sharedDb } from '../../support/shared';

function open(file: string): InspectSession {
  const session = new InspectSession(readShared('runs', file));
  session.useData(KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, session.domain), source: 'shared' })));
  return session;
}

const GOLD = 'synthetic-retail-test-gold+gold-no-consent+drop-write+wrong-arg-s1.json';
const OUTPUTS = 'synthetic-retail-test-outputs-wrong+outputs-comma+outputs-beside-toolcall+unknown-tool-s1.json';

describe.skipIf(!hasShared)('what-if on the synthetic runs', () => {
  it('inserting the missing write of a drop-write episode turns 0 into 1', () => {
    const session = open(GOLD);
    const index = session.records.findIndex(
      (r) => r.extra.synthetic_kind === 'drop-write' && r.recordedReward === 0 && r.traj.some((m) => Array.isArray(m.get('tool_calls'))),
    );
    const view = session.view(index);
    if ('error' in view) throw new Error(view.error);
    const missing = view.alignment.pairs.find((p) => p.match === 'missing' && p.write)!;
    const gold = session.records[index]!.task!.actions[missing.gold!]!;
    const lastRespond = view.steps.findLast((s) => s.isRespond)!;
    const edited = session.whatIf(index, [{ messageIndex: lastRespond.messageIndex, insert: true, name: gold.name, kwargsJson: jsonDumps(gold.kwargs) }]);
    if ('error' in edited) throw new Error(edited.error);
    expect(view.verdict.reward).toBe(0);
    expect(edited.verdict.reward).toBe(1);
    expect(edited.verdict.recordedReward).toBeNull();
    expect(edited.whatIf!.recordedEpisodeReward).toBe(0);
    const inserted = edited.messages.filter((m) => m.whatIf === 'inserted');
    expect(inserted.map((m) => m.originalIndex)).toEqual([null, null]);
    // The inserted call's result is the replayed observation, not an empty recording.
    const step = edited.steps.find((s) => s.action === gold.name)!;
    expect(edited.messages[step.observationIndex!]!.content).toBe(step.observation);
    expect(step.observationDiffers).toBe(false);
    expect(edited.messages.some((m) => m.whatIf === 'recorded' && m.role === 'user')).toBe(true);
    expect(edited.alignment.firstDivergentWrite).toBeNull();
  });

  it('editing the respond of an outputs-wrong episode turns 0 into 1, and the dialogue shows the new text', () => {
    const session = open(OUTPUTS);
    const index = session.records.findIndex(
      (r) =>
        r.extra.synthetic_kind === 'outputs-wrong' &&
        r.recordedReward === 0 &&
        r.task!.outputs.length === 1 &&
        r.traj.some((m) => Array.isArray(m.get('tool_calls'))),
    );
    const view = session.view(index);
    if ('error' in view) throw new Error(view.error);
    const output = session.records[index]!.task!.outputs[0]!;
    const respond = view.steps.find((s) => s.isRespond && /asked for/.test(s.respondText ?? ''))!;
    const text = `Here is what you asked for: ${output}.`;
    const edited = session.whatIf(index, [{ messageIndex: respond.messageIndex, content: text }]);
    if ('error' in edited) throw new Error(edited.error);
    expect(view.verdict.reward).toBe(0);
    expect(edited.verdict.reward).toBe(1);
    expect(edited.messages[respond.messageIndex]!.content).toBe(text);
    expect(edited.messages[respond.messageIndex]!.whatIf).toBe('edited');
  });

  it('a react episode: edit a tool call in the Action: text, remove a step', () => {
    const session = open(
      'synthetic-airline-test-gold+gold-no-consent+drop-write+wrong-arg+float-amount+bad-kwargs+transfer-midway+outputs-comma+error-then-retry+step-limit-s1.json',
    );
    const index = session.records.findIndex(
      (r) =>
        r.extra.synthetic_kind === 'gold' && r.recordedReward === 1 && r.traj.some((m) => String(m.get('content')).includes('"name": "cancel_reservation"')),
    );
    const view = session.view(index);
    if ('error' in view) throw new Error(view.error);
    expect(view.strategy).not.toBe('tool-calling');
    const write = view.steps.find((s) => s.action === 'cancel_reservation')!;
    const removed = session.whatIf(index, [{ messageIndex: write.messageIndex, remove: true }]);
    if ('error' in removed) throw new Error(removed.error);
    expect(removed.verdict.reward).toBe(0);
    expect(removed.whatIf!.removed).toEqual([{ before: write.messageIndex, text: 'cancel_reservation' }]);
    const wrong = session.whatIf(index, [{ messageIndex: write.messageIndex, kwargsJson: '{"reservation_id": "NOPE00"}' }]);
    if ('error' in wrong) throw new Error(wrong.error);
    expect(wrong.steps.find((s) => s.action === 'cancel_reservation')!.observation).toMatch(/^Error/);
    expect(wrong.verdict.reward).toBe(0);
  });

  it('bad edits give a clear message', () => {
    const session = open(OUTPUTS);
    const view = session.view(0);
    if ('error' in view) throw new Error(view.error);
    const call = view.steps.find((s) => !s.isRespond)!;
    expect(session.whatIf(0, [{ messageIndex: call.messageIndex, content: 'hi' }])).toMatchObject({ error: expect.stringMatching(/tool call, not a respond/) });
    expect(session.whatIf(0, [{ messageIndex: 0, insert: true, name: 'think', kwargsJson: '[1]' }])).toMatchObject({
      error: expect.stringMatching(/not a JSON object/),
    });
    expect(session.whatIf(0, [{ messageIndex: 9999, remove: true }])).toMatchObject({ error: expect.stringMatching(/has \d+ messages/) });
  });
});
