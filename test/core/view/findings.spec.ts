import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDb, DOMAIN_TABLES } from '../../../src/core/model/data/db';
import { InspectSession } from '../../../src/core/session/session';
import type { EpisodeView } from '../../../src/core/view/episode-view';
import type { FindingKind } from '../../../src/core/view/findings';

/**
 * Hand-made retail episodes on the bundled sample DB, each made to trigger one finding kind,
 * next to a twin that must not trigger it.
 */
const root = resolve(import.meta.dirname, '../../..');
const texts = Object.fromEntries(
  DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(root, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]),
);
const sampleDb = buildDb('retail', texts);
const sampleText = readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8');

type Msg = Record<string, unknown>;
const user = (content: string): Msg => ({ role: 'user', content });
const say = (content: string): Msg => ({ role: 'assistant', content });
const call = (name: string, args: Record<string, unknown>, opts: { content?: string; more?: [string, Record<string, unknown>][] } = {}): Msg => ({
  role: 'assistant',
  content: opts.content ?? null,
  tool_calls: [[name, args] as const, ...(opts.more ?? [])].map(([n, a], i) => ({
    id: `c${i}`,
    type: 'function',
    function: { name: n, arguments: JSON.stringify(a) },
  })),
});
const tool = (content: string): Msg => ({ role: 'tool', content });

const PRIYA = 'priya_okafor_3187';
const AUTH: Msg[] = [
  user('Hi, I want to cancel an order.'),
  say('Your email, please?'),
  user('priya.okafor41@example.org'),
  call('find_user_id_by_email', { email: 'priya.okafor41@example.org' }),
  tool(PRIYA),
];
const CANCEL_ARGS = { order_id: '#W5193402', reason: 'no longer needed' };
const CANCEL_ACTIONS = [
  { name: 'find_user_id_by_email', kwargs: { email: 'priya.okafor41@example.org' } },
  { name: 'cancel_pending_order', kwargs: CANCEL_ARGS },
];
const ASK: Msg[] = [say('To confirm: cancel order #W5193402, reason "no longer needed". Shall I go ahead?'), user('Yes, please.')];
const BYE: Msg[] = [say('Done. Anything else?'), user('No, thanks. ###STOP###')];

function view(traj: Msg[], task: { actions?: unknown[]; outputs?: string[] } = {}, opts: { rule?: 'db-and-outputs' | 'outputs-only' } = {}): EpisodeView {
  const episode = {
    task_id: 0,
    reward: 0.0,
    info: { task: { user_id: PRIYA, actions: task.actions ?? CANCEL_ACTIONS, instruction: 'made up', outputs: task.outputs ?? [] } },
    traj: [{ role: 'system', content: '# Retail agent policy' }, ...traj],
    trial: 0,
  };
  const session = new InspectSession(JSON.stringify([episode]), opts.rule ? { rule: opts.rule } : {});
  session.useData([{ commit: 'sample', known: null, db: sampleDb, source: 'sample' }]);
  const v = session.view(0);
  if ('error' in v) throw new Error(v.error);
  return v;
}

const kinds = (v: EpisodeView): FindingKind[] => v.findings.map((f) => f.kind);
const stepsOf = (v: EpisodeView, kind: FindingKind): (number | null)[] => v.findings.filter((f) => f.kind === kind).map((f) => f.step);
const stepOf = (v: EpisodeView, action: string): number => v.steps.findIndex((s) => s.action === action);

describe('procedure findings', () => {
  const clean = view([...AUTH, ...ASK, call('cancel_pending_order', CANCEL_ARGS), tool('{}'), ...BYE]);

  it('a clean cancel has none, and earns 1', () => {
    expect(clean.verdict.reward).toBe(1);
    expect(clean.findings).toEqual([]);
  });

  it('write-without-consent: a successful write with no "yes" before it', () => {
    const v = view([...AUTH, call('cancel_pending_order', CANCEL_ARGS), tool('{}'), ...BYE]);
    expect(stepsOf(v, 'write-without-consent')).toEqual([stepOf(v, 'cancel_pending_order')]);
    expect(v.verdict.reward).toBe(1);
  });

  it('failed-write: a failing write is its own finding, not a write without consent', () => {
    const v = view([
      ...AUTH,
      call('cancel_pending_order', { order_id: '#W6251873', reason: 'no longer needed' }),
      tool('Error'),
      ...ASK,
      call('cancel_pending_order', CANCEL_ARGS),
      tool('{}'),
      ...BYE,
    ]);
    expect(stepsOf(v, 'failed-write')).toEqual([stepOf(v, 'cancel_pending_order')]);
    expect(kinds(v)).not.toContain('write-without-consent');
    expect(kinds(clean)).not.toContain('failed-write');
  });

  it('write-before-auth: retail needs a user id found by email or name and zip', () => {
    const v = view([user('Cancel #W5193402 please.'), ...ASK, call('cancel_pending_order', CANCEL_ARGS), tool('{}'), ...BYE]);
    expect(stepsOf(v, 'write-before-auth')).toEqual([stepOf(v, 'cancel_pending_order')]);
    expect(kinds(clean)).not.toContain('write-before-auth');
  });

  it('write-for-other-user: the order belongs to someone else than the authenticated user', () => {
    const v = view([...AUTH, ...ASK, call('cancel_pending_order', { order_id: '#W1849630', reason: 'no longer needed' }), tool('{}'), ...BYE]);
    expect(stepsOf(v, 'write-for-other-user')).toEqual([stepOf(v, 'cancel_pending_order')]);
    expect(v.findings.find((f) => f.kind === 'write-for-other-user')!.text).toContain('dmitri_novak_6673');
    expect(kinds(clean)).not.toContain('write-for-other-user');
  });

  const RETURN: Msg[] = [
    user('Ines Halvorsen, 23219.'),
    call('find_user_id_by_name_zip', { first_name: 'Ines', last_name: 'Halvorsen', zip: '23219' }),
    tool('ines_halvorsen_4412'),
    say('To confirm: return the poncho to PayPal. Proceed?'),
    user('Yes.'),
  ];
  const returnCall = (): Msg[] => {
    const order = JSON.parse(texts.orders!)['#W2906674'];
    const users = JSON.parse(texts.users!)['ines_halvorsen_4412'];
    const paypal = Object.keys(users.payment_methods).find((k) => k.startsWith('paypal'))!;
    return [call('return_delivered_order_items', { order_id: '#W2906674', item_ids: [order.items[0].item_id], payment_method_id: paypal }), tool('{}')];
  };

  it('claim-not-backed: "your refund has been processed" after a return that only records a request', () => {
    const v = view([
      user('I want to return a poncho.'),
      say('Name and zip?'),
      ...RETURN,
      ...returnCall(),
      say('Your refund has been processed to your PayPal account.'),
      user('Thanks ###STOP###'),
    ]);
    expect(stepsOf(v, 'claim-not-backed')).toEqual([v.steps.length - 1]);
    const promise = view([
      user('I want to return a poncho.'),
      say('Name and zip?'),
      ...RETURN,
      ...returnCall(),
      say('The return is requested; $24.99 will be refunded once it arrives.'),
      user('Thanks ###STOP###'),
    ]);
    expect(kinds(promise)).not.toContain('claim-not-backed');
    // A cancel records its refund in the payment history: the same words are backed there.
    const cancel = view([
      ...AUTH,
      ...ASK,
      call('cancel_pending_order', CANCEL_ARGS),
      tool('{}'),
      say('Your order is cancelled and the refund has been processed.'),
      user('Bye ###STOP###'),
    ]);
    expect(kinds(cancel)).not.toContain('claim-not-backed');
  });

  it('return-only-records-request: every successful return, none for a cancel', () => {
    const v = view([user('I want to return a poncho.'), say('Name and zip?'), ...RETURN, ...returnCall(), ...BYE]);
    expect(stepsOf(v, 'return-only-records-request')).toEqual([stepOf(v, 'return_delivered_order_items')]);
    expect(kinds(clean)).not.toContain('return-only-records-request');
  });

  it('transfer-to-human: says what the reward did with it', () => {
    const v = view([...AUTH, call('transfer_to_human_agents', { summary: 'wants a cancel' }), tool('Transfer successful')]);
    expect(stepsOf(v, 'transfer-to-human')).toEqual([stepOf(v, 'transfer_to_human_agents')]);
    expect(v.findings.find((f) => f.kind === 'transfer-to-human')!.text).toMatch(/reward 0\.0/);
    expect(kinds(clean)).not.toContain('transfer-to-human');
  });
});

describe('blind spots of the evaluator', () => {
  const READ = [{ name: 'find_user_id_by_email', kwargs: { email: 'priya.okafor41@example.org' } }];
  const answer = (text: string, outputs: string[]): EpisodeView => view([...AUTH, say(text), user('ok ###STOP###')], { actions: READ, outputs });

  it('output-inside-longer-token: "10" found only inside an item id', () => {
    const v = answer('Item 3542102174 is red; there are 11 options.', ['10']);
    expect(v.verdict.reward).toBe(1);
    expect(stepsOf(v, 'output-inside-longer-token')).toEqual([v.steps.length - 1]);
    expect(kinds(answer('There are 10 options.', ['10']))).not.toContain('output-inside-longer-token');
    // "327" inside "$1,327" (the comma is removed before searching).
    expect(kinds(answer('That is $1,327 in total.', ['327']))).toContain('output-inside-longer-token');
    expect(kinds(answer('That is $327 in total.', ['327']))).not.toContain('output-inside-longer-token');
  });

  it('output-unmatchable-comma: an output with a comma can never match', () => {
    const v = answer('The total is 1,177.59.', ['1,177.59']);
    expect(v.verdict.reward).toBe(0);
    expect(stepsOf(v, 'output-unmatchable-comma')).toEqual([null]);
    expect(kinds(answer('The total is 1,177.59.', ['1177.59']))).not.toContain('output-unmatchable-comma');
  });

  it('output-outside-respond: the output only beside a tool call', () => {
    const v = view(
      [
        ...AUTH,
        call('get_order_details', { order_id: '#W5193402' }, { content: 'The total is 69.49.' }),
        tool('{}'),
        say('Anything else?'),
        user('no ###STOP###'),
      ],
      {
        actions: READ,
        outputs: ['69.49'],
      },
    );
    expect(v.verdict.reward).toBe(0);
    const f = v.findings.find((x) => x.kind === 'output-outside-respond')!;
    expect(f.step).toBe(stepOf(v, 'get_order_details'));
    expect(f.messageIndex).toBe(v.steps[f.step!]!.messageIndex);
    expect(kinds(answer('The total is 69.49.', ['69.49']))).not.toContain('output-outside-respond');
  });

  it('db-differs-only-in-number-type, on the sample run (49 vs 49.0) and not on a real mismatch', () => {
    const session = new InspectSession(sampleText);
    session.useData([{ commit: 'sample', known: null, db: sampleDb, source: 'sample' }]);
    const [intFloat, wrongItem] = [session.view(5), session.view(1)];
    if ('error' in intFloat || 'error' in wrongItem) throw new Error('not evaluable');
    expect(kinds(intFloat)).toContain('db-differs-only-in-number-type');
    expect(kinds(wrongItem)).not.toContain('db-differs-only-in-number-type');
    for (const i of [0, 7]) {
      const v = session.view(i);
      if ('error' in v) throw new Error(v.error);
      expect(
        v.findings.filter((f) => f.group === 'procedure'),
        `clean pass ${i}`,
      ).toEqual([]);
    }
  });

  it('tool-calls-dropped: only the first of two tool calls runs', () => {
    const v = view([
      ...AUTH,
      ...ASK,
      call('cancel_pending_order', CANCEL_ARGS, { more: [['get_order_details', { order_id: '#W5193402' }]] }),
      tool('{}'),
      ...BYE,
    ]);
    expect(stepsOf(v, 'tool-calls-dropped')).toEqual([stepOf(v, 'cancel_pending_order')]);
    expect(v.findings.find((f) => f.kind === 'tool-calls-dropped')!.text).toContain('get_order_details');
    expect(v.findings.filter((f) => f.kind === 'tool-calls-dropped')).toHaveLength(1);
  });

  it('step-limit-after-match: never ended although the DB already matched', () => {
    const v = view([...AUTH, ...ASK, call('cancel_pending_order', CANCEL_ARGS), tool('{}'), say('Done.'), user('Thanks!')]);
    expect(v.verdict.done).toBe(false);
    expect(v.verdict.hypotheticalReward).toBe(1);
    expect(stepsOf(v, 'step-limit-after-match')).toEqual([v.steps.length - 1]);
    const unmatched = view([...AUTH, say('Done.'), user('Thanks!')]);
    expect(kinds(unmatched)).not.toContain('step-limit-after-match');
  });

  it('rules-disagree: outputs right, DB wrong', () => {
    const v = view(
      [
        ...AUTH,
        ...ASK,
        call('cancel_pending_order', { ...CANCEL_ARGS, reason: 'ordered by mistake' }),
        tool('{}'),
        say('Cancelled: 69.49 refunded.'),
        user('ok ###STOP###'),
      ],
      {
        outputs: ['69.49'],
      },
    );
    expect(v.rules).toEqual({ 'outputs-only': 1, 'db-and-outputs': 0 });
    expect(stepsOf(v, 'rules-disagree')).toEqual([null]);
    expect(kinds(answer('The total is 69.49.', ['69.49']))).not.toContain('rules-disagree');
  });
});

describe('gold alignment', () => {
  it('same / other-args / missing / extra, reads and writes apart, first divergent write', () => {
    const v = view(
      [
        ...AUTH,
        call('get_order_details', { order_id: '#W5193402' }),
        tool('{}'),
        ...ASK,
        call('cancel_pending_order', { ...CANCEL_ARGS, reason: 'ordered by mistake' }),
        tool('{}'),
        ...BYE,
      ],
      {
        actions: [
          ...CANCEL_ACTIONS,
          { name: 'modify_user_address', kwargs: { user_id: PRIYA, address1: 'a', address2: '', city: 'c', state: 's', country: 'USA', zip: '1' } },
        ],
      },
    );
    const a = v.alignment;
    const cancel = stepOf(v, 'cancel_pending_order');
    expect(a.pairs.map((p) => [p.gold, p.step, p.match, p.write])).toEqual([
      [0, stepOf(v, 'find_user_id_by_email'), 'same', false],
      [null, stepOf(v, 'get_order_details'), 'extra', false],
      [1, cancel, 'other-args', true],
      [2, null, 'missing', true],
    ]);
    expect(a.pairs[2]!.args).toEqual([{ name: 'reason', agent: '"ordered by mistake"', reference: '"no longer needed"' }]);
    expect(a.firstDivergentWrite).toEqual({ gold: 1, step: cancel });
    expect(a.dbDiffs.find((d) => d.record === 'orders/#W5193402')).toEqual({ record: 'orders/#W5193402', step: cancel, gold: 1 });
  });

  it('prefers the agent call that succeeded when two calls of the reference tool exist', () => {
    const v = view([
      ...AUTH,
      ...ASK,
      call('cancel_pending_order', { order_id: '#W6251873', reason: 'no longer needed' }),
      tool('Error'),
      call('cancel_pending_order', { ...CANCEL_ARGS, reason: 'ordered by mistake' }),
      tool('{}'),
      ...BYE,
    ]);
    const pair = v.alignment.pairs.find((p) => p.gold === 1)!;
    expect(pair.step).toBe(v.steps.findLastIndex((s) => s.action === 'cancel_pending_order'));
    expect(v.alignment.pairs.find((p) => p.match === 'extra')!.failed).toBe(true);
  });

  it('a clean episode: every pair the same, no divergent write', () => {
    const v = view([...AUTH, ...ASK, call('cancel_pending_order', CANCEL_ARGS), tool('{}'), ...BYE]);
    expect(v.alignment.pairs.every((p) => p.match === 'same')).toBe(true);
    expect(v.alignment.firstDivergentWrite).toBeNull();
  });
});

describe('walkthrough', () => {
  it('names the steps, the writes, the ending, the reference replay, the hashes and the arithmetic', () => {
    const v = view([...AUTH, ...ASK, call('cancel_pending_order', { ...CANCEL_ARGS, reason: 'ordered by mistake' }), tool('{}'), ...BYE]);
    const texts = v.walkthrough.map((l) => l.text);
    const cancel = stepOf(v, 'cancel_pending_order');
    expect(v.walkthrough.find((l) => l.step === cancel && l.text.startsWith(`Step ${cancel + 1}`))!.text).toContain('writes orders/#W5193402');
    expect(texts.some((t) => t.includes('###STOP###'))).toBe(true);
    expect(v.walkthrough.filter((l) => l.gold !== undefined)).toHaveLength(2);
    expect(texts).toContain(`agent DB ${v.verdict.agentHash}`);
    expect(v.walkthrough.some((l) => l.record === 'orders/#W5193402' && l.text === 'orders/#W5193402')).toBe(true);
    expect(texts.at(-1)).toBe('8. reward = r_actions = 0. Reward 0.0.');
  });

  it('an output episode: the normalised text and where it matched; r_outputs in the arithmetic', () => {
    const v = view([...AUTH, say('That is $1,177.59 in total.'), user('ok ###STOP###')], { actions: [CANCEL_ACTIONS[0]], outputs: ['1177.59'] });
    const line = v.walkthrough.find((l) => l.text.startsWith('"1177.59"'))!;
    expect(line.step).toBe(v.steps.length - 1);
    expect(line.text).toContain('$1177.59 in total');
    expect(v.walkthrough.at(-1)!.text).toBe('8. reward = r_actions × r_outputs = 1 × 1 = 1. Reward 1.0.');
  });

  it('a never-finished episode names the 30-step limit', () => {
    const session = new InspectSession(sampleText);
    session.useData([{ commit: 'sample', known: null, db: sampleDb, source: 'sample' }]);
    const v = session.view(6);
    if ('error' in v) throw new Error(v.error);
    expect(v.walkthrough.some((l) => l.text.includes('max_num_steps=30'))).toBe(true);
    expect(v.walkthrough.at(-1)!.text).toMatch(/never ended, so the reward is 0\.0/);
  });
});
