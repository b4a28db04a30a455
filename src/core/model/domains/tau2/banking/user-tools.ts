/** banking_knowledge's user toolkit (tools.py `KnowledgeUserTools`): the customer's tools and the discoverable ones the agent gives. */
import { PyException } from '../../../../py/errors';
import { contains, mul } from '../../../../py/ops';
import { sha256Hex } from '../../../../py/hash';
import { tTypeName, type TDict, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import type { MethodDef, ToolDef, Toolkit } from '../toolkit';
import { floatOrNull, hidden, inTable, join, record, row, tool, v, type Args } from './common';
import { addToDb, constraint, data, noRecords, queryDatabaseTool } from './db-query';
import { deterministicId, dictKey, dumpsIndent, dumpsSorted, f2, float, get, int, iterate, loads, oneOf, repr, s, TODAY, truthy, typeError } from './py';

const pv = (x: TValue): PyValue => x as PyValue;

// Python parity: KnowledgeUserTools._check_tool_given (a tool the agent has not given answers with an error).
function notGiven(self: Toolkit, name: string): string | null {
  const result = queryDatabaseTool(self.db, 'user_discoverable_tools', constraint('tool_name', name));
  return result.includes('No records found')
    ? `Error: Tool '${name}' has not been given to you by the agent. The agent must first use \`give_discoverable_user_tool\` to give this tool to you.`
    : null;
}

// Python parity: KnowledgeUserTools._log_user_tool_call.
function logCall(self: Toolkit, name: string, args: TDict): void {
  const id = deterministicId(`user_discoverable_tool_call:${name}:${dumpsSorted(args)}`);
  addToDb(self.db, 'user_discoverable_tool_calls', id, record(['tool_name', name], ['arguments', args], ['called_at', TODAY], ['status', 'CALLED']));
}

/** A user discoverable tool: checks it was given, logs the call, then runs. */
function given(name: string, toolType: 'read' | 'write', params: readonly string[], run: (self: Toolkit, a: Args, args: TDict) => TValue): ToolDef {
  return hidden(name, toolType, params, (self, a) => {
    const error = notGiven(self, name);
    if (error !== null) return error;
    const args: TDict = new Map(params.map((p) => [p, v(a, p)]));
    logCall(self, name, args);
    return run(self, a, args);
  });
}

const VALID_CARDS = [
  'Bronze Rewards Card',
  'Business Bronze Rewards Card',
  'Business Gold Rewards Card',
  'Business Platinum Rewards Card',
  'Business Silver Rewards Card',
  'Crypto-Cash Back',
  'Diamond Elite Card',
  'EcoCard',
  'Gold Rewards Card',
  'Green Rewards Card',
  'Platinum Rewards Card',
  'Silver Rewards Card',
  'Silver Zoom Card',
];

const REWARDS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(
  (
    [
      ['Bronze Rewards Card', [['default', 1.0]]],
      [
        'Silver Rewards Card',
        [
          ['Travel', 4.0],
          ['Software', 4.0],
          ['default', 1.0],
        ],
      ],
      ['Gold Rewards Card', [['default', 2.5]]],
      ['Platinum Rewards Card', [['default', 10.0]]],
      ['Business Bronze Rewards Card', [['default', 1.0]]],
      [
        'Business Silver Rewards Card',
        [
          ['Travel', 10.0],
          ['Software', 10.0],
          ['default', 1.0],
        ],
      ],
      [
        'Green Rewards Card',
        [
          ['Sustainable', 3.0],
          ['default', 1.0],
        ],
      ],
      [
        'Business Gold Rewards Card',
        [
          ['Operations', 2.5],
          ['default', 1.0],
        ],
      ],
      [
        'Business Platinum Rewards Card',
        [
          ['Travel', 4.0],
          ['Software', 4.0],
          ['Media', 4.0],
          ['default', 1.5],
        ],
      ],
      [
        'Silver Zoom Card',
        [
          ['Transportation', 3.0],
          ['default', 1.0],
        ],
      ],
      ['Diamond Elite Card', [['default', 5.0]]],
      [
        'EcoCard',
        [
          ['Green', 5.0],
          ['default', 1.0],
        ],
      ],
      ['Crypto-Cash Back', [['default', 2.0]]],
    ] as const
  ).map(([card, rates]) => [card, new Map(rates)]),
);

const DISCOVERABLE_USER_TOOLS: readonly ToolDef[] = [
  given('submit_cash_back_dispute_0589', 'write', ['user_id', 'transaction_id'], (self, a, args) => {
    const [user, txn] = [v(a, 'user_id'), v(a, 'transaction_id')];
    const id = `dsp_${deterministicId(`dispute:${s(user)}:${s(txn)}`, 12)}`;
    const config = data(self.db, 'task_config');
    let auto: TValue = false;
    if (config.size > 0) auto = get(get(config, 'dispute_settings', new Map()), 'auto_resolve_disputes', false);
    const r = truthy(auto)
      ? record(['dispute_id', id], ['user_id', user], ['transaction_id', txn], ['submitted_at', TODAY], ['status', 'RESOLVED'], ['resolution', 'APPROVED'])
      : record(['dispute_id', id], ['user_id', user], ['transaction_id', txn], ['submitted_at', TODAY], ['status', 'SUBMITTED']);
    const status = truthy(auto)
      ? 'Status: RESOLVED - The dispute has been reviewed and approved. The transaction rewards need to be updated.'
      : 'Status: SUBMITTED - Your dispute has been queued for review.';
    const ok = addToDb(self.db, 'cash_back_disputes', id, r);
    const head = `Cash back dispute submitted successfully. Your case has been queued for review.\n\nExecuted: submit_cash_back_dispute_0589\nArguments: ${dumpsIndent(args)}\n`;
    return head + (ok ? `Dispute ID: ${id}\n${status}` : 'Note: Dispute may have already been submitted for this transaction.');
  }),
  given('get_referral_link', 'write', ['user_id', 'card_name'], (self, a, args) => {
    const [user, card] = [v(a, 'user_id'), v(a, 'card_name')];
    const id = deterministicId(`referral_link:${s(user)}:${s(card)}`);
    const ok = addToDb(
      self.db,
      'referrals',
      id,
      record(['referral_id', id], ['referrer_id', user], ['referred_account_type', card], ['referral_status', 'NO_PROGRESS'], ['date', TODAY]),
    );
    const head = `Referral link generated successfully. Share this link with the person you want to refer.\n\nExecuted: get_referral_link\nArguments: ${dumpsIndent(args)}\n`;
    return (
      head +
      (ok ? `Referral ID: ${id}\nReferral link: https://rhobank.com/refer/${id}` : 'Note: A referral link for this card may have already been generated.')
    );
  }),
  given('get_card_last_4_digits', 'read', ['credit_card_account_id'], (self, a, args) => {
    const cc = v(a, 'credit_card_account_id');
    if (noRecords(queryDatabaseTool(self.db, 'credit_card_accounts', constraint('account_id', cc)))) return `Error: Credit card account '${s(cc)}' not found.`;
    const last4 = [...sha256Hex(`card_last4:${s(cc)}`)]
      .filter((c) => c >= '0' && c <= '9')
      .slice(0, 4)
      .join('')
      .padEnd(4, '0');
    return `Card information retrieved successfully.\n\nExecuted: get_card_last_4_digits\nArguments: ${dumpsIndent(args)}\nLast 4 digits of card: ${last4}`;
  }),
  given('deposit_check_3847', 'write', ['account_id', 'check_amount'], (self, a, args) => {
    const [id, raw] = [v(a, 'account_id'), v(a, 'check_amount')];
    const amount = floatOrNull(raw);
    if (amount === null) return `Error: Invalid check amount '${s(raw)}'. Must be a number.`;
    if (amount <= 0) return 'Error: Check amount must be positive.';
    if (!inTable(self.db, 'accounts', id)) return `Error: Account '${s(id)}' not found.`;
    const account = row(self.db, 'accounts', id);
    if (!oneOf(get(account, 'status'), ['ACTIVE', 'OPEN'])) return `Error: Account '${s(id)}' is not active.`;
    const current = balanceOf(get(account, 'current_holdings', get(account, 'balance', 0n)));
    const next = current + amount;
    account.set('current_holdings', `$${f2(next)}`);
    return (
      `Check deposited successfully. Funds will be available according to your account's deposit policy.\n\nExecuted: deposit_check_3847\n` +
      `Arguments: ${dumpsIndent(args)}\nCheck deposit processed!\n  - Account: ${s(id)}\n  - Check Amount: $${f2(amount)}\n` +
      `  - Previous Balance: $${f2(current)}\n  - New Balance: $${f2(next)}`
    );
  }),
];

/** `parse_balance` of deposit_check_3847 (a str's float() may raise). */
function balanceOf(x: TValue): number {
  if (typeof x === 'bigint' || typeof x === 'boolean' || typeof x === 'number')
    return typeof x === 'number' ? x : Number(typeof x === 'boolean' ? (x ? 1 : 0) : x);
  if (typeof x === 'string') return float(x.split('$').join('').split(',').join(''));
  return 0;
}

/** The user's discoverable tools, by name (what `give_discoverable_user_tool` may give). */
export const USER_DISCOVERABLE: ReadonlyMap<string, ToolDef> = new Map(DISCOVERABLE_USER_TOOLS.map((t) => [t.name, t]));

// Python parity: KnowledgeUserTools.call_discoverable_user_tool.
function callUserTool(self: Toolkit, a: Args): TValue {
  const name = v(a, 'discoverable_tool_name');
  const k = dictKey(name);
  const method = k === null ? undefined : USER_DISCOVERABLE.get(k);
  if (method === undefined) return `Error: Unknown discoverable tool '${s(name)}'.`;
  const parsed = loads(v(a, 'arguments'), true);
  if ('error' in parsed) return `Error: Invalid JSON in arguments: ${parsed.error}`;
  const args = parsed.value;
  for (const p of method.params) if (p.default === undefined && !contains(pv(args), p.name)) return `Error: Missing required parameter: ${p.name}`;
  for (const x of iterate(args)) {
    const key = dictKey(x);
    if (key === null || !method.params.some((p) => p.name === key)) return `Error: Unexpected parameter: ${s(x)}`;
  }
  try {
    if (!(args instanceof Map))
      throw typeError(`tau2.domains.banking_knowledge.tools.KnowledgeUserTools.${method.name}() argument after ** must be a mapping, not ${tTypeName(args)}`);
    return self.callByName(method.name, args);
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'TypeError') return `Error: Invalid arguments for tool '${method.name}': ${e.text}`;
    throw e;
  }
}

export const USER_TOOLS: readonly ToolDef[] = [
  ...DISCOVERABLE_USER_TOOLS,
  tool('apply_for_credit_card', 'write', ['card_type', 'customer_name', 'annual_income', ['rho_bank_subscription', false]], (self, a) => {
    const [type, name, raw, sub] = [v(a, 'card_type'), v(a, 'customer_name'), v(a, 'annual_income'), v(a, 'rho_bank_subscription')];
    if (!oneOf(type, VALID_CARDS)) return `Error: Invalid card_type '${s(type)}'. Must be one of: ${repr(VALID_CARDS)}`;
    const income = floatOrNull(raw);
    if (income === null) return 'Error: Invalid annual_income. Must be a number.';
    const id = deterministicId(`credit_card:${s(type)}:${s(name)}:${s(income)}:${s(sub)}`);
    const r = record(
      ['application_id', id],
      ['card_type', type],
      ['customer_name', name],
      ['annual_income', income],
      ['rho_bank_subscription', sub],
      ['status', 'PENDING'],
      ['date', TODAY],
    );
    if (!addToDb(self.db, 'credit_card_applications', id, r)) return `Failed to submit application: Record ID '${id}' may already exist.`;
    return 'Credit card application submitted:\nYour application has been successfully submitted. You will receive a decision within 5-7 business days via email.';
  }),
  tool('submit_referral', 'write', ['user_id', 'account_type'], (self, a) => {
    const [user, type] = [v(a, 'user_id'), v(a, 'account_type')];
    const id = deterministicId(join(':', ['referral', user, type]));
    const r = record(['referral_id', id], ['referrer_id', user], ['referred_account_type', type], ['referral_status', 'NO_PROGRESS'], ['date', TODAY]);
    if (!addToDb(self.db, 'referrals', id, r)) return `Failed to submit referral: Record ID '${id}' may already exist.`;
    return (
      `Referral request submitted successfully!\n  - Referral ID: ${id}\n  - Referrer ID: ${s(user)}\n  - Account Type: ${s(type)}\n  - Status: NO_PROGRESS\n` +
      `  - Date: ${TODAY}\n\nShare your referral ID with the person you're referring. They will need to use this when applying for their account.`
    );
  }),
  tool('call_discoverable_user_tool', 'write', ['discoverable_tool_name', ['arguments', '{}']], callUserTool),
  tool('list_discoverable_user_tools', 'read', [], (self) => {
    const result = queryDatabaseTool(self.db, 'user_discoverable_tools', '{}');
    // Python parity: the check looks for "No results found", which the query never says.
    if (result.includes('No results found')) return 'No tools have been given to you yet by the agent.';
    return `Tools given to you by the agent:\n${result}`;
  }),
  tool('request_human_agent_transfer', 'write', [], (self) => {
    const existing = queryDatabaseTool(self.db, 'human_transfer_requests', '{}');
    const n = noRecords(existing) ? 1 : existing.split('request_id').length;
    const id = `transfer_request_${n}`;
    addToDb(self.db, 'human_transfer_requests', id, record(['request_id', id], ['request_number', BigInt(n)], ['requested_at', TODAY], ['status', 'PENDING']));
    return `Transfer request #${n} submitted.\nThe agent will process your request.`;
  }),
  tool('submit_transaction', 'write', ['user_id', 'credit_card_type', 'merchant_name', 'amount', 'category'], (self, a) => {
    const [user, type, merchant, amount, category] = ['user_id', 'credit_card_type', 'merchant_name', 'amount', 'category'].map((k) => v(a, k)) as [
      TValue,
      TValue,
      TValue,
      TValue,
      TValue,
    ];
    const tk = dictKey(type);
    const rates = tk === null ? undefined : REWARDS.get(tk);
    if (rates === undefined) return `Error: Unknown credit card type '${s(type)}'. Available types: ${repr([...REWARDS.keys()])}`;
    const id = `txn_${deterministicId(join(':', ['transaction', user, type, merchant, f2(amount), category]), 12)}`;
    const ck = dictKey(category);
    const rate = ck !== null && rates.has(ck) ? rates.get(ck)! : rates.get('default')!;
    const points = int(mul(pv(amount), pv(rate)) as TValue);
    const r = record(
      ['transaction_id', id],
      ['user_id', user],
      ['credit_card_type', type],
      ['merchant_name', merchant],
      ['transaction_amount', `$${f2(amount)}`],
      ['transaction_date', TODAY],
      ['category', category],
      ['status', 'COMPLETED'],
      ['rewards_earned', `${points} points`],
    );
    if (!addToDb(self.db, 'credit_card_transaction_history', id, r)) return `Failed to submit transaction: Record ID '${id}' may already exist.`;
    return (
      `Transaction submitted successfully!\n  - Transaction ID: ${id}\n  - User ID: ${s(user)}\n  - Card Type: ${s(type)}\n  - Merchant: ${s(merchant)}\n` +
      `  - Amount: $${f2(amount)}\n  - Category: ${s(category)}\n  - Date: ${TODAY}\n  - Rewards Earned: ${points} points (${s(rate)}% cashback rate)\n`
    );
  }),
];

/** `query_database` (a method, not a tool: reached only by name). */
export const USER_FUNCTIONS: readonly MethodDef[] = [
  {
    name: 'query_database',
    params: [{ name: 'database_name' }, { name: 'constraints', default: '{}' }],
    run: (self, a) => queryDatabaseTool(self.db, s(a.get('database_name')!), a.get('constraints')!),
  },
];
