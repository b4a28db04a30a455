/** τ²'s procedure findings (what the policy asks and the reward ignores) on crafted simulations: each kind found, and not found. */
import { describe, expect, it } from 'vitest';
import type { Tau2Evaluation } from '../../../../src/core/judge/tau2/evaluate';
import { tau2Findings } from '../../../../src/core/view/tau2/findings';
import { tau2ProcedureFindings, type Tau2ProcedureKind } from '../../../../src/core/view/tau2/procedure';

const WRITES = new Set([
  'cancel_pending_order',
  'return_delivered_order_items',
  'cancel_reservation',
  'book_reservation',
  'send_certificate',
  'refuel_data',
  'resume_line',
  'enable_roaming',
  'reboot_device',
  'toggle_airplane_mode',
]);

type Turn =
  | readonly ['user' | 'agent', string]
  | readonly ['call', string, Record<string, string>, string, { readonly error?: boolean; readonly by?: 'assistant' | 'user' }?];

/** A judged simulation made of turns: text by the user or the agent, or a call (in a message of its own) with its answer. */
function sim(domain: string, turns: readonly Turn[], extra: Partial<Tau2Evaluation> = {}): Tau2Evaluation {
  const messages: { role: string; content: string | null; toolCalls: unknown[] | null; requestor: string | null; error: boolean }[] = [];
  const toolCalls: unknown[] = [];
  for (const t of turns) {
    if (t[0] !== 'call') {
      messages.push({ role: t[0] === 'agent' ? 'assistant' : 'user', content: t[1], toolCalls: null, requestor: null, error: false });
      continue;
    }
    const [, name, args, output, opt] = t;
    const by = opt?.by ?? 'assistant';
    const index = toolCalls.length;
    toolCalls.push({
      index,
      messageIndex: messages.length,
      id: `c${index}`,
      name,
      requestor: by,
      arguments: new Map(Object.entries(args)),
      knownTool: true,
      mutating: WRITES.has(name),
      output,
      error: opt?.error ?? false,
      recordedOutput: output,
      evaluatorReplayed: WRITES.has(name),
    });
    messages.push({ role: by, content: null, toolCalls: [{ name }], requestor: null, error: false });
    messages.push({ role: 'tool', content: output, toolCalls: null, requestor: by, error: opt?.error ?? false });
  }
  return {
    simulation: { messages, fullDuplex: false, rewardInfo: null },
    domain,
    premature: false,
    reward: 1,
    rewardBasis: ['DB'],
    actionChecks: [],
    toolCalls,
    error: null,
    ...extra,
  } as unknown as Tau2Evaluation;
}

const kinds = (e: Tau2Evaluation): Tau2ProcedureKind[] => tau2ProcedureFindings(e).map((f) => f.kind);

const RETAIL_AUTH: Turn[] = [
  ['user', 'Hi, I am Yusuf Rossi, zip 19122.'],
  ['call', 'find_user_id_by_name_zip', { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' }, 'yusuf_rossi_9620'],
];
const ORDER = '{"order_id": "#W1", "user_id": "yusuf_rossi_9620", "status": "cancelled"}';

describe('τ² procedure findings', () => {
  it('write without consent: the user’s last words before a write hold no explicit yes (named with the call and the message); a yes, oui or confirmation covers it', () => {
    const e = sim('retail', [
      ...RETAIL_AUTH,
      ['agent', 'Cancel #W1 because no longer needed?'],
      ['user', 'Please cancel it.'],
      ['call', 'cancel_pending_order', { order_id: '#W1' }, ORDER],
    ]);
    const [f] = tau2ProcedureFindings(e);
    expect(f).toMatchObject({ kind: 'write-without-consent', group: 'procedure', call: 1, message: 4 });
    expect(f!.text).toBe(
      'cancel_pending_order (call 1) changed the DB without an explicit yes: the user’s last words before it (message #4) were “Please cancel it.”. Not part of τ²’s reward.',
    );
    for (const yes of ['Yes, go ahead.', 'Oui, je confirme.', 'I confirm.', 'Sí, por favor.'])
      expect(kinds(sim('retail', [...RETAIL_AUTH, ['user', yes], ['call', 'cancel_pending_order', { order_id: '#W1' }, ORDER]]))).toEqual([]);
    // One yes covers the writes up to the user's next message; a write before the user says anything is named.
    expect(
      kinds(
        sim('retail', [
          ...RETAIL_AUTH,
          ['user', 'yes'],
          ['call', 'cancel_pending_order', { order_id: '#W1' }, ORDER],
          ['call', 'cancel_pending_order', { order_id: '#W1' }, ORDER],
        ]),
      ),
    ).toEqual([]);
    // A simulation where the user never writes (solo mode, a voice one: no user text in its messages) gets none.
    expect(kinds(sim('retail', [RETAIL_AUTH[1]!, ['call', 'cancel_pending_order', { order_id: '#W1' }, ORDER]]))).toEqual([]);
    // A write the policy asks no yes for (airline's certificate, a telecom roaming switch-on) is not named.
    expect(
      kinds(
        sim('airline', [
          ['user', 'I am mia_li_3668'],
          ['call', 'send_certificate', { user_id: 'mia_li_3668', amount: '100' }, 'Certificate added'],
        ]),
      ),
    ).toEqual([]);
  });

  it('authentication before access: retail without a user-id lookup, airline without a user id from the user, telecom without a customer lookup', () => {
    const retail = sim('retail', [
      ['user', 'My user id is yusuf_rossi_9620'],
      ['call', 'get_order_details', { order_id: '#W1' }, ORDER],
      ['call', 'get_order_details', { order_id: '#W1' }, ORDER],
    ]);
    expect(tau2ProcedureFindings(retail)).toEqual([
      {
        kind: 'access-before-auth',
        group: 'procedure',
        call: 0,
        text: 'get_order_details (call 0) read a user’s records before the user was authenticated (retail’s policy: locate the user id by email or by name and zip first, even when the user gives it). Not part of τ²’s reward.',
      },
    ]);
    expect(kinds(sim('retail', [...RETAIL_AUTH, ['call', 'get_order_details', { order_id: '#W1' }, ORDER]]))).toEqual([]);
    // A failed lookup authenticates no one.
    expect(
      kinds(
        sim('retail', [
          ['call', 'find_user_id_by_email', { email: 'x' }, 'Error: User not found', { error: true }],
          ['call', 'get_user_details', { user_id: 'x_y_1234' }, '{}'],
        ]),
      ),
    ).toEqual(['access-before-auth']);
    const airline = (said: string): Tau2Evaluation =>
      sim('airline', [
        ['user', said],
        ['call', 'get_reservation_details', { reservation_id: 'ABC123' }, '{"reservation_id": "ABC123", "user_id": "mia_li_3668"}'],
      ]);
    expect(kinds(airline('Please look up reservation ABC123.'))).toEqual(['access-before-auth']);
    expect(kinds(airline('I am mia_li_3668, reservation ABC123.'))).toEqual([]);
    expect(
      kinds(
        sim('airline', [
          ['user', 'Flights from JFK?'],
          ['call', 'search_direct_flight', { origin: 'JFK' }, '[]'],
        ]),
      ),
    ).toEqual([]);
    const telecom = (first: Turn[]): Tau2ProcedureKind[] =>
      kinds(sim('telecom', [['user', 'My phone is 555-123-2002'], ...first, ['call', 'get_bills_for_customer', { customer_id: 'C1001' }, '[]']]));
    expect(telecom([])).toEqual(['access-before-auth']);
    expect(telecom([['call', 'get_customer_by_phone', { phone_number: '555-123-2002' }, '{"customer_id": "C1001", "full_name": "John Smith"}']])).toEqual([]);
  });

  it('another user’s records: by argument or by the owner in the answer, after authenticating someone else', () => {
    const other = '{"order_id": "#W2", "user_id": "someone_else_1111"}';
    const e = sim('retail', [
      ...RETAIL_AUTH,
      ['call', 'get_order_details', { order_id: '#W2' }, other],
      ['call', 'get_user_details', { user_id: 'someone_else_1111' }, '{}'],
    ]);
    expect(tau2ProcedureFindings(e).map((f) => [f.kind, f.call])).toEqual([
      ['other-user-records', 1],
      ['other-user-records', 2],
    ]);
    expect(tau2ProcedureFindings(e)[0]!.text).toContain('read records of someone_else_1111, not of the authenticated user (yusuf_rossi_9620)');
    expect(kinds(sim('retail', [...RETAIL_AUTH, ['call', 'get_order_details', { order_id: '#W1' }, ORDER]]))).toEqual([]);
    expect(
      kinds(
        sim('telecom', [
          ['call', 'get_customer_by_phone', { phone_number: '1' }, '{"customer_id": "C1001"}'],
          ['call', 'get_bills_for_customer', { customer_id: 'C2002' }, '[]'],
        ]),
      ),
    ).toEqual(['other-user-records']);
  });

  it('transfer to a human: once per simulation, with the later transfers counted, the hold message and the reference actions', () => {
    const transfer = (after: string, reference: boolean): Tau2Evaluation =>
      sim(
        'airline',
        [
          ['user', 'I am mia_li_3668 and I want a human.'],
          ['call', 'transfer_to_human_agents', { summary: 'wants a human' }, 'Transfer successful'],
          ['agent', after],
          ['call', 'transfer_to_human_agents', { summary: 'again' }, 'Transfer successful'],
        ],
        { reward: 0, actionChecks: reference ? [{ action: { name: 'transfer_to_human_agents' } }] : [] } as unknown as Partial<Tau2Evaluation>,
      );
    const [f, ...rest] = tau2ProcedureFindings(transfer('YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.', true));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ kind: 'transfer-to-human', call: 0 });
    expect(f!.text).toBe(
      'The agent transferred the user to a human agent (call 0, and 1 more time after it); it then sent the hold message the policy asks for. τ² judges the DB as it is (reward 0.0); the task’s reference actions transfer too. Not part of τ²’s reward.',
    );
    expect(tau2ProcedureFindings(transfer('One moment.', false))[0]!.text).toContain('its next words are not the policy’s hold message');
    expect(tau2ProcedureFindings(transfer('One moment.', false))[0]!.text).toContain('the task’s reference actions do not transfer');
    expect(
      kinds(
        sim('airline', [
          ['user', 'I am mia_li_3668'],
          ['agent', 'Anything else?'],
        ]),
      ),
    ).toEqual([]);
  });

  it('failed write: a mutating call τ² answers with an error, the agent’s or the user’s; a failed read is not one', () => {
    const e = sim('telecom', [
      ['call', 'get_customer_by_phone', { phone_number: '1' }, '{"customer_id": "C1001"}'],
      ['call', 'resume_line', { customer_id: 'C1001', line_id: 'L1' }, 'Error: Line must be suspended to resume', { error: true }],
      ['call', 'toggle_airplane_mode', {}, 'Error: no device', { error: true, by: 'user' }],
      ['call', 'get_data_usage', { customer_id: 'C1001', line_id: 'L9' }, 'Error: Line not found', { error: true }],
    ]);
    expect(tau2ProcedureFindings(e).map((f) => [f.kind, f.call])).toEqual([
      ['failed-write', 1],
      ['failed-write', 2],
    ]);
    expect(tau2ProcedureFindings(e)[1]!.text).toBe(
      'toggle_airplane_mode (call 2, asked by the user) failed: τ² answered “Error: no device”, and it changed nothing. Not part of τ²’s reward.',
    );
  });

  it('telecom device actions: a resumed line needs a reboot and a check of the device after it; roaming and refuel a check', () => {
    const lookup: Turn = ['call', 'get_customer_by_phone', { phone_number: '1' }, '{"customer_id": "C1001"}'];
    const resume: Turn = ['call', 'resume_line', { customer_id: 'C1001', line_id: 'L1' }, '{"line_id": "L1", "status": "Active"}'];
    const none = tau2ProcedureFindings(sim('telecom', [lookup, resume]));
    expect(none.map((f) => [f.kind, f.call])).toEqual([
      ['device-action-missing', 1],
      ['device-action-missing', 1],
    ]);
    expect(none[0]!.text).toContain('no reboot_device on the user’s device follows it');
    expect(none[1]!.text).toContain('no check of the device');
    expect(
      kinds(
        sim('telecom', [
          lookup,
          resume,
          ['call', 'reboot_device', {}, 'Rebooted', { by: 'user' }],
          ['call', 'check_status_bar', {}, 'Status Bar: 📶 Excellent', { by: 'user' }],
        ]),
      ),
    ).toEqual([]);
    // A reboot before the resume does not count; solo mode: the agent's own device call does.
    expect(kinds(sim('telecom', [lookup, ['call', 'reboot_device', {}, 'Rebooted', { by: 'user' }], resume, ['call', 'check_status_bar', {}, 'ok']]))).toEqual([
      'device-action-missing',
    ]);
    expect(
      kinds(
        sim('telecom', [
          lookup,
          ['user', 'Yes, refuel 2 GB.'],
          ['call', 'refuel_data', { customer_id: 'C1001', line_id: 'L1', gb_amount: '2' }, '{}'],
          ['call', 'run_speed_test', {}, 'fast', { by: 'user' }],
        ]),
      ),
    ).toEqual([]);
    expect(kinds(sim('telecom', [lookup, ['call', 'enable_roaming', { customer_id: 'C1001', line_id: 'L1' }, '{}']]))).toEqual(['device-action-missing']);
  });

  it('only for airline, retail and telecom; in the findings τ² shows, after the others', () => {
    const e = sim('mock', [['call', 'transfer_to_human_agents', {}, 'Transfer successful']]);
    expect(tau2ProcedureFindings(e)).toEqual([]);
    const retail = sim(
      'retail',
      [
        ['user', 'hello'],
        ['call', 'transfer_to_human_agents', { summary: 's' }, 'Transfer successful'],
      ],
      {
        initialDbHash: { agent: 'a', user: null },
        dbHash: null,
      } as Partial<Tau2Evaluation>,
    );
    expect(tau2Findings(retail).map((f) => [f.kind, f.group])).toEqual([['transfer-to-human', 'procedure']]);
  });
});
