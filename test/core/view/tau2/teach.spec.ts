/**
 * A τ² simulation read from its file alone (`tau2RecordedSimView`: before τ²'s data is here) and as a teaching sheet
 * (`tau2TeachSheet`, `teachResult`). Where τ²'s record and the recomputed verdict agree, the sheet made from the record
 * must say what the sheet made from the recomputed view says: each component's value and each check's answer.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { tau2RecordedSimView } from '../../../../src/core/view/tau2/recorded-view';
import { tau2TeachSheet } from '../../../../src/core/view/tau2/teach';
import { teachResult, type TeachSheet } from '../../../../src/core/view/teach';
import { describeTau2 } from '../../../support/shared';
import { openTau2 } from '../../../support/tau2';

const ROOT = resolve(import.meta.dirname, '../../../../sample-runs');

async function sample(): Promise<Tau2Session> {
  const read = async (rel: string): Promise<string | null> => {
    for (const r of [rel, rel.replace(/^[0-9a-f]{7,40}\//, '')]) {
      const text = await readFile(join(ROOT, 'tau2-data', r), 'utf8').catch(() => null);
      if (text !== null) return text;
    }
    return null;
  };
  return Tau2Session.open(Tau2Session.read(readFileSync(join(ROOT, 'runs/tau2-mock-sample.json'), 'utf8')), read);
}

/** What a sheet answers: each component's value, each check's met, in order. */
const answers = (s: TeachSheet): unknown => s.components.map((c) => [c.key, c.value, c.items.map((i) => [i.key, i.met])]);

/** Checks the recorded and the recomputed sheets of every simulation of `session` whose recorded reward is recomputed; returns how many. */
function agreeing(session: Tau2Session): number {
  let n = 0;
  for (let i = 0; i < session.size; i++) {
    const recomputed = session.simView(i);
    const recorded = tau2RecordedSimView(session.run, i);
    // The same dialogue, call for call, with the recorded answers.
    expect(recorded.messages.flatMap((m) => m.calls.map((c) => [c.index, c.name, c.recordedOutput]))).toEqual(
      recomputed.messages.flatMap((m) => m.calls.map((c) => [c.index, c.name, c.recordedOutput])),
    );
    expect(recorded.recordedOnly).toBe(true);
    expect(recorded.reward).toBe(recomputed.recordedReward ?? 0);
    if (recomputed.agrees !== true || recomputed.error !== null) continue;
    const a = tau2TeachSheet(recorded);
    const b = tau2TeachSheet(recomputed);
    expect(answers(a), `simulation ${i}`).toEqual(answers(b));
    expect(a.recomputed).toBe(false);
    expect(b.recomputed).toBe(true);
    expect(a.reward).toBe(b.reward);
    // Where the record says a reference action was matched, the call it names is the recomputed one's.
    expect(
      (recorded.actions ?? []).map((x) => x.matchedCall),
      `simulation ${i}`,
    ).toEqual((recomputed.actions ?? []).map((x) => x.matchedCall));
    n++;
  }
  return n;
}

describe('teaching sheets on the τ² sample', () => {
  it('the sheet made from the file alone answers as the recomputed one, simulation by simulation', async () => {
    const session = await sample();
    expect(agreeing(session)).toBe(session.size);
  });

  it('asks only the components of the task’s reward basis, with each check inside them', async () => {
    const session = await sample();
    // finish_desks, trial 2: DB 0, env assertion 0, communicate 1 (τ²'s record).
    const sheet = tau2TeachSheet(session.simView(1));
    expect(sheet.components.map((c) => [c.key, c.value, c.items.map((i) => i.met)])).toEqual([
      ['DB', 0, []],
      ['ENV_ASSERTION', 0, [false]],
      ['COMMUNICATE', 1, [true]],
    ]);
    expect(sheet.components[0]!.context).toEqual(['update_task_status({"task_id": "task_1", "status": "completed"}) by the agent']);
    expect(sheet.components[1]!.items[0]!.evidence).toBe('does not hold: expected True, actual False');
    expect(sheet.components[2]!.items[0]!.evidence).toMatch(/^said in message #\d+$/);
    expect(sheet.outside).toEqual([expect.stringMatching(/^Reference actions \(not in this task’s reward\): 0 of 1 called as written/)]);
    expect(sheet.reward).toBe(0);
    expect(sheet.task).toBe('finish_desks');
  });

  it('the result: the reward the marks give and every difference, unmarked components counted', async () => {
    const sheet = tau2TeachSheet((await sample()).simView(1));
    const all = teachResult(sheet, { DB: true, ENV_ASSERTION: false, 'ENV_ASSERTION#0': true, COMMUNICATE: true });
    expect(all.yours).toBe(0);
    expect(all.differences.map((d) => [d.key, d.yours, d.theirs])).toEqual([
      ['DB', true, false],
      ['ENV_ASSERTION#0', true, false],
    ]);
    expect(all.summary).toBe('Your marks give 0.0, as τ² (recomputed here) does. You differ on 2 checks.');
    const some = teachResult(sheet, { DB: false });
    expect(some.yours).toBeNull();
    expect(some.marked).toBe(1);
    expect(some.differences.map((d) => d.key)).toEqual(['ENV_ASSERTION', 'COMMUNICATE']);
    expect(some.summary).toBe('You did not mark every component (1 of 3); τ² (recomputed here) gives 0.0. You differ on 2 checks.');
    const right = teachResult(sheet, { DB: false, ENV_ASSERTION: false, COMMUNICATE: true });
    expect(right.differences).toEqual([]);
    expect(right.summary).toBe('Your marks give 0.0, as τ² (recomputed here) does. You agree on every check you marked.');
  });

  it('a simulation that stopped early has no component to mark, and says why', async () => {
    const session = await sample();
    const i = session.run.simulations.findIndex((s) => !['agent_stop', 'user_stop'].includes(s.terminationReason));
    expect(i).toBeGreaterThanOrEqual(0);
    for (const v of [session.simView(i), tau2RecordedSimView(session.run, i)]) {
      const sheet = tau2TeachSheet(v);
      expect(sheet.components).toEqual([]);
      expect(sheet.before).toMatch(/stopped early .*τ² gives 0 without checking anything/);
    }
  });
});

describeTau2('teaching sheets on τ² runs of ../shared', () => {
  it.each(['sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'])(
    '%s: the recorded sheet answers as the recomputed one wherever τ²’s record and the recomputed reward agree',
    async (file) => {
      const session = await openTau2(file);
      expect(agreeing(session)).toBeGreaterThan(session.size / 2);
    },
    180_000,
  );
});
