/**
 * What-if on τ² simulations (issue #18 item 4), on real runs of ../shared/tau2: no edit reproduces τ²'s
 * own verdict check by check; a drop, an argument fix and an inserted call make an airline DB equal to
 * gold; an edited assistant message meets a communicate check; a user device call inserted in telecom
 * meets the env assertions; bad edits are refused in words.
 */
import { expect, it } from 'vitest';
import { editTau2Messages } from '../../../../src/core/session/tau2/what-if';
import { TAU2_DOMAINS } from '../../../../src/core/model/domains/tau2/registry';
import { jsonDumps } from '../../../../src/core/py/json-dumps';
import type { PyDict } from '../../../../src/core/py/value';
import type { Tau2Session } from '../../../../src/core/session/tau2/session';
import type { Tau2WhatIfView } from '../../../../src/core/session/tau2/what-if';
import type { StepEdit } from '../../../../src/core/session/what-if';
import { describeTau2 } from '../../../support/shared';
import { openTau2, tau2Expected } from '../../../support/tau2';

interface ExpectedSim {
  premature: boolean;
  reward: number;
  db_match: boolean | null;
  db_hash: { gold_agent: string | null; predicted_agent: string | null; gold_user: string | null; predicted_user: string | null } | null;
  env_assertions: { met: boolean }[] | null;
  action_checks: { action_match: boolean }[] | null;
  communicate_checks: { met: boolean }[] | null;
  reward_breakdown: Record<string, number> | null;
}

const AIRLINE = 'sierra-research__gym-gpt-4.1-airline.json';

const ok = (r: Tau2WhatIfView | { readonly error: string }): Tau2WhatIfView => {
  if ('error' in r) throw new Error(`what-if refused: ${r.error}`);
  return r;
};

/** The recorded message and call position of the first call of `name` (the what-if addresses recorded calls). */
function findCall(session: Tau2Session, index: number, name: string, nth = 0): { messageIndex: number; callIndex: number } {
  const found: { messageIndex: number; callIndex: number }[] = [];
  session.evaluate(index).simulation.messages.forEach((m, messageIndex) =>
    (m.toolCalls ?? []).forEach((c, callIndex) => {
      if (c.name === name) found.push({ messageIndex, callIndex });
    }),
  );
  if (found[nth] === undefined) throw new Error(`no call ${nth} of ${name} in simulation ${index}`);
  return found[nth];
}

const changed = (r: Tau2WhatIfView): string[] => r.checks.filter((c) => c.before !== c.after).map((c) => `${c.component} ${c.what}: ${c.before} → ${c.after}`);

describeTau2('τ² what-if', () => {
  it.each([AIRLINE, 'sierra-research__gym-gpt-4.1-retail.json', 'sierra-research__gym-gpt-4.1-telecom.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'])(
    '%s: with no edit, every simulation gets τ²’s own verdict, component by component',
    async (file) => {
      const session = await openTau2(file);
      const expected = tau2Expected(file).simulations as unknown as ExpectedSim[];
      for (let i = 0; i < session.size; i++) {
        const x = expected[i]!;
        const r = ok(session.whatIf(i, []));
        const v = r.view;
        const at = `simulation ${i}`;
        expect(v.reward, at).toBe(x.reward);
        expect(r.rewardAfter, at).toBe(x.reward);
        expect(r.rewardBefore, at).toBe(x.reward);
        expect(v.premature, at).toBe(x.premature);
        expect(v.breakdown, at).toEqual(x.reward_breakdown);
        expect(v.db?.match ?? null, at).toBe(x.db_match);
        expect(v.db?.hashes ?? null, at).toEqual(
          x.db_hash && {
            goldAgent: x.db_hash.gold_agent,
            predictedAgent: x.db_hash.predicted_agent,
            goldUser: x.db_hash.gold_user,
            predictedUser: x.db_hash.predicted_user,
          },
        );
        expect(v.envAssertions?.map((a) => a.met) ?? null, at).toEqual(x.env_assertions?.map((a) => a.met) ?? null);
        expect(v.actions?.map((a) => a.match) ?? null, at).toEqual(x.action_checks?.map((a) => a.action_match) ?? null);
        expect(v.communicate?.map((a) => a.met) ?? null, at).toEqual(x.communicate_checks?.map((a) => a.met) ?? null);
        // Nothing changed: every check is the same before and after, every message and call is the recorded one.
        expect(changed(r), at).toEqual([]);
        expect(r.origin.map((o) => o.original)).toEqual(v.messages.map((_, k) => k));
        expect(r.origin.every((o) => o.mark === null)).toBe(true);
        expect(v.messages).toEqual(session.simView(i).messages);
      }
    },
    180_000,
  );

  it('airline: dropping an extra cancellation makes the DB equal gold (reward 0.0 → 1.0)', async () => {
    const session = await openTau2(AIRLINE);
    const before = session.simView(9);
    expect(before.db?.match).toBe(false);
    expect(before.reward).toBe(0);
    const at = findCall(session, 9, 'cancel_reservation');
    const r = ok(session.whatIf(9, [{ ...at, remove: true }]));
    expect(r.view.db!.match).toBe(true);
    expect(r.view.db!.hashes.predictedAgent).toBe(r.view.db!.hashes.goldAgent);
    expect(r.view.db!.hashes.predictedAgent).not.toBe(before.db!.hashes.predictedAgent);
    expect(r.view.db!.diff).toEqual([]);
    expect([r.rewardBefore, r.rewardAfter, r.view.reward]).toEqual([0, 1, 1]);
    expect(changed(r)).toEqual(['DB DB: false → true']);
    expect(r.removed.map((x) => x.text)).toEqual(['cancel_reservation']);
    // The file's records are of the unedited simulation (reward 0 there): no finding compares the edited one with them.
    expect([r.view.recordedReward, r.view.agrees]).toEqual([0, null]);
    expect(r.view.findings.map((f) => f.kind).filter((k) => k.startsWith('recorded'))).toEqual([]);
    // One call fewer; its tool message went with it.
    const calls = (v: typeof before): number => v.messages.reduce((n, m) => n + m.calls.length, 0);
    expect(calls(r.view)).toBe(calls(before) - 1);
    expect(r.view.messages.filter((m) => m.role === 'tool')).toHaveLength(calls(r.view));
    // The message held that call alone and no text: it is gone, said where.
    expect(r.view.messages).toHaveLength(before.messages.length - 2);
    expect(r.origin.filter((o) => o.original === at.messageIndex)).toEqual([]);
  }, 60_000);

  it('later calls are replayed on the edited state: a read after an inserted cancellation sees it', async () => {
    const session = await openTau2(AIRLINE);
    const read = findCall(session, 9, 'get_reservation_details', 1);
    const r = ok(
      session.whatIf(9, [{ messageIndex: read.messageIndex, insert: true, name: 'cancel_reservation', kwargsJson: '{"reservation_id": "Q4L9HS"}' }]),
    );
    const after = r.view.messages.flatMap((m) => m.calls).find((c) => c.name === 'get_reservation_details' && c.arguments.includes('Q4L9HS'))!;
    expect(after.output).toContain('"status": "cancelled"');
    expect(after.matchesRecorded).toBe(false);
    const recorded = session
      .simView(9)
      .messages.flatMap((m) => m.calls)
      .find((c) => c.index === after.index - 1)!;
    expect(recorded.output).not.toContain('"status": "cancelled"');
  }, 60_000);

  it('airline: a certificate sent with the reference action’s arguments makes the DB equal gold and matches the action', async () => {
    const session = await openTau2(AIRLINE);
    const e = session.evaluate(4);
    const missing = e.actionChecks!.find((c) => !c.actionMatch)!;
    expect(missing.action.name).toBe('send_certificate');
    const at = findCall(session, 4, 'send_certificate');
    const r = ok(session.whatIf(4, [{ ...at, kwargsJson: jsonDumps(missing.action.arguments as PyDict) }]));
    expect(r.view.db!.match).toBe(true);
    expect(r.rewardAfter).toBe(1);
    expect(changed(r)).toEqual(['DB DB: false → true', `ACTION ${missing.action.actionId} (send_certificate): false → true`]);
    const edited = r.origin.findIndex((o) => o.callMarks.includes('edited'));
    expect(r.origin[edited]!.original).toBe(at.messageIndex);
    const call = r.view.messages[edited]!.calls[at.callIndex]!;
    expect(JSON.parse(call.arguments)).toEqual(JSON.parse(jsonDumps(missing.action.arguments as PyDict)));
    // The edited call's output is replayed on the edited arguments.
    expect(call.output).not.toBeNull();
    expect(call.error).toBe(false);
  }, 60_000);

  it('airline: the missing reference action inserted makes the DB equal gold', async () => {
    const file = 'sierra-research__pr171-ironforge-v2-gpt54-airline.json';
    const session = await openTau2(file);
    const e = session.evaluate(3);
    expect(e.dbMatch).toBe(false);
    // The reference action it never made (it made others with other arguments).
    const missing = e.actionChecks!.find((c) => !c.actionMatch && c.action.name === 'update_reservation_baggages')!;
    const end = e.simulation.messages.length - 1;
    const r = ok(
      session.whatIf(3, [{ messageIndex: end, insert: true, name: missing.action.name, kwargsJson: jsonDumps(missing.action.arguments as PyDict) }]),
    );
    expect(r.view.db!.match).toBe(true);
    expect(r.rewardAfter).toBe(1);
    const ins = r.origin.findIndex((o) => o.mark === 'inserted');
    expect(r.view.messages[ins]!.calls[0]!.name).toBe(missing.action.name);
    expect(r.view.messages[ins]!.calls[0]!.requestor).toBe('assistant');
    // An inserted call has no recorded output to compare with; its tool message follows it.
    expect(r.view.messages[ins]!.calls[0]!.matchesRecorded).toBeNull();
    expect(r.view.messages[ins + 1]!.role).toBe('tool');
    expect(r.view.actions!.find((a) => a.actionId === missing.action.actionId)!.match).toBe(true);
  }, 60_000);

  it('a communicate check met by editing an assistant message; NL assertions kept as recorded', async () => {
    const session = await openTau2('sierra-research__gym-ft-gpt-4.1-sft-airline.json');
    const before = session.simView(19);
    expect(before.breakdown).toEqual({ DB: 1, COMMUNICATE: 0 });
    const info = before.communicate!.find((c) => !c.met)!.info;
    const last = before.messages.findLast((m) => m.role === 'assistant' && m.content !== null)!;
    const text = `${last.content} Your total savings come to $${Number(info).toLocaleString('en-US')}.`;
    const r = ok(session.whatIf(19, [{ messageIndex: last.index, content: text }]));
    expect(changed(r)).toEqual([`COMMUNICATE ${info}: false → true`]);
    expect([r.rewardBefore, r.rewardAfter]).toEqual([0, 1]);
    const c = r.view.communicate!.find((x) => x.info === info)!;
    expect(c.messageIndex).toBe(last.index);
    expect(text.slice(c.span!.start, c.span!.end).replaceAll(',', '')).toBe(info);
    expect(r.origin[last.index]!.mark).toBe('edited');
    // The NL assertions are the recorded ones (one was judged not met), unchanged, and said to be kept.
    expect(r.view.nl).toEqual(before.nl);
    expect(r.nlKept).toBe(before.nl!.length);
    expect(r.checks.filter((x) => x.component === 'NL_ASSERTION').every((x) => x.before === x.after)).toBe(true);
    expect(r.note).toMatch(/user simulator is not re-run/);
  }, 60_000);

  it('telecom: the user’s own device call inserted (toggle_roaming) meets the env assertions and the user action', async () => {
    const session = await openTau2('sierra-research__gym-gpt-4.1-telecom.json');
    const e = session.evaluate(3);
    expect(e.reward).toBe(0);
    const n = e.simulation.messages.length;
    const r = ok(session.whatIf(3, [{ messageIndex: n, insert: true, name: 'toggle_roaming', kwargsJson: '{}', requestor: 'user' }]));
    const ins = r.origin.findIndex((o) => o.mark === 'inserted');
    expect(r.view.messages[ins]!.role).toBe('user');
    const call = r.view.messages[ins]!.calls[0]!;
    expect(call.requestor).toBe('user');
    expect(call.output).toMatch(/^Data Roaming is now ON\./);
    expect(r.view.envAssertions!.every((a) => a.met)).toBe(true);
    expect(changed(r).filter((c) => c.startsWith('ENV_ASSERTION'))).toHaveLength(e.envAssertions!.filter((a) => !a.met).length);
    expect(r.rewardAfter).toBe(1);
    // The same call as the agent's is refused: it is a device tool, not an agent tool.
    const refused = session.whatIf(3, [{ messageIndex: n, insert: true, name: 'toggle_roaming', kwargsJson: '{}', requestor: 'assistant' }]);
    expect(refused).toEqual({ error: expect.stringMatching(/'toggle_roaming' is a tool of the user’s device, not one the agent can call/) });
  }, 60_000);

  it('telecom in solo mode: a device tool is the agent’s call; asked as the user’s, it is refused', async () => {
    const session = await openTau2('sierra-research__gym-gpt-4.1-telecom-solo.json');
    const n = session.evaluate(0).simulation.messages.length;
    const refused = session.whatIf(0, [{ messageIndex: n, insert: true, name: 'toggle_airplane_mode', kwargsJson: '{}', requestor: 'user' }]);
    expect(refused).toEqual({
      error: 'the call inserted before message #' + n + ": in solo mode the agent makes the device calls; insert 'toggle_airplane_mode' as the agent’s call",
    });
    const r = ok(session.whatIf(0, [{ messageIndex: n, insert: true, name: 'toggle_airplane_mode', kwargsJson: '{}' }]));
    const call = r.view.messages.flatMap((m) => m.calls).at(-1)!;
    expect([call.name, call.requestor, call.error]).toEqual(['toggle_airplane_mode', 'assistant', false]);
    expect(r.view.messages.find((m) => m.calls.includes(call))!.role).toBe('assistant');
  }, 60_000);

  it('bad edits are refused with a sentence saying what is wrong', async () => {
    const session = await openTau2(AIRLINE);
    const at = findCall(session, 4, 'send_certificate');
    const bad = (edits: StepEdit[]): string => {
      const r = session.whatIf(4, edits);
      if (!('error' in r)) throw new Error('accepted');
      return r.error;
    };
    expect(bad([{ ...at, kwargsJson: '{"user_id": "x",' }])).toMatch(
      new RegExp(
        `^the arguments of the send_certificate call of message #${at.messageIndex} are not valid JSON: Expecting property name enclosed in double quotes: line 1 column 17 \\(char 16\\)$`,
      ),
    );
    expect(bad([{ ...at, kwargsJson: '[1, 2]' }])).toMatch(/are not a JSON object/);
    expect(bad([{ messageIndex: 3, insert: true, name: 'fly_me_to_the_moon', kwargsJson: '{}' }])).toBe(
      "the call inserted before message #3: 'fly_me_to_the_moon' is not a tool of τ²'s airline domain",
    );
    expect(bad([{ ...at, name: 'send_voucher', kwargsJson: '{}' }])).toBe(
      `the send_certificate call of message #${at.messageIndex}: 'send_voucher' is not a tool of τ²'s airline domain`,
    );
    expect(bad([{ messageIndex: 0, content: 'x', callIndex: 3 }])).toMatch(/^message #0 makes no tool call$/);
    expect(bad([{ messageIndex: 99_999, remove: true }])).toMatch(/^the edit names message #99999, but the simulation has \d+ messages$/);
    // A tool result cannot be edited on its own, nor a call inserted between a call and its result.
    expect(bad([{ messageIndex: at.messageIndex + 1 + at.callIndex, remove: true }])).toMatch(
      /is a tool message: only the agent's messages and calls can be edited/,
    );
    expect(bad([{ messageIndex: at.messageIndex + 1, insert: true, name: 'get_user_details', kwargsJson: '{"user_id": "x"}' }])).toMatch(
      /is the result of a call: insert before/,
    );
  }, 60_000);

  it('edits keep τ²’s pairing: parallel calls, a call dropped from the middle takes its own tool message', () => {
    const domain = TAU2_DOMAINS.get('airline')!;
    const call = (id: string, name: string) => ({ id, name, arguments: new Map(), requestor: 'assistant' as const });
    const tool = (id: string, content: string) => ({ role: 'tool', content, toolCalls: null, id, requestor: 'assistant' as const, error: false });
    const messages = [
      {
        role: 'assistant',
        content: null,
        toolCalls: [call('a', 'get_user_details'), call('b', 'cancel_reservation'), call('c', 'list_all_airports')],
        id: null,
        requestor: null,
        error: false,
      },
      tool('a', 'A'),
      tool('b', 'B'),
      tool('c', 'C'),
      { role: 'user', content: 'thanks', toolCalls: null, id: null, requestor: null, error: false },
    ];
    const out = editTau2Messages(
      messages,
      [
        { messageIndex: 0, callIndex: 1, remove: true },
        { messageIndex: 0, callIndex: 3, insert: true, name: 'calculate', kwargsJson: '{"expression": "1 + 1"}' },
      ],
      domain,
      false,
    );
    expect(out.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'tool', 'user']);
    expect(out.messages[0]!.toolCalls!.map((c) => c.name)).toEqual(['get_user_details', 'list_all_airports', 'calculate']);
    expect(out.messages.slice(1, 4).map((m) => m.id)).toEqual(['a', 'c', out.messages[0]!.toolCalls![2]!.id]);
    expect(out.origin[0]).toEqual({ original: 0, mark: 'edited', calls: [0, 2, null], callMarks: [null, null, 'inserted'] });
    expect(out.origin.slice(1).map((o) => [o.original, o.mark])).toEqual([
      [1, null],
      [3, null],
      [null, 'inserted'],
      [4, 'recorded'],
    ]);
    expect(out.removed).toEqual([{ before: 0, text: 'cancel_reservation' }]);
  });
});
