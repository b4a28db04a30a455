/**
 * banking_knowledge's discoverable agent tools on bank accounts (`@is_discoverable_tool` methods of `KnowledgeTools`):
 * opening, closing, transfers, credits, interest reports, transaction lists — what each checks, writes and answers.
 */
import type { TDict, TValue } from '../../../../py/pydantic';
import type { ToolDef } from '../toolkit';
import { accountBalance, dateOr, floatOrNull, hidden, inTable, isNone, minus, not, parseBalance, record, row, rowOrNull, same, v } from './common';
import { ownTable } from './copy';
import { addToDb, constraint, data, formatRecords, noRecords, queryDatabaseTool, queryDb } from './db-query';
import {
  daysBetween,
  DATETIME_MIN,
  deterministicId,
  f2,
  get,
  lower,
  NOW,
  oneOf,
  repr,
  round4,
  s,
  stampCompare,
  strptimeOrNull,
  TODAY,
  truthy,
  type Stamp,
} from './py';
import { CHECKING_EARLY, SAVINGS_EARLY, lookupKey } from './discoverable-helpers';

export const BANK_ACCOUNT_TOOLS: readonly ToolDef[] = [
  hidden('open_bank_account_4821', 'write', ['user_id', 'account_type', 'account_class'], (self, a) => {
    const [user, type, cls] = [v(a, 'user_id'), v(a, 'account_type'), v(a, 'account_class')];
    if (not(user) || not(type) || not(cls)) return 'Error: Missing required parameters.';
    const types = ['checking', 'savings', 'business_checking', 'business_savings'];
    if (!oneOf(type, types)) return `Error: Invalid account_type. Must be one of: ${repr(types)}`;
    const ageDays = (acc: TDict): number => {
      const opened = dateOr(get(acc, 'date_opened', ''), null);
      return opened === null ? 0 : daysBetween(NOW, opened);
    };
    const accounts = [...data(self.db, 'accounts').values()].filter((acc) => same(get(acc, 'user_id'), user)) as TDict[];
    const kind = (acc: TDict): TValue => get(acc, 'account_type', get(acc, 'class', ''));
    const open = (acc: TDict): boolean => oneOf(get(acc, 'status', ''), ['OPEN', 'ACTIVE']);
    const refuse = 'Error: Account eligibility requirements not met.';
    if (type === 'savings') {
      let ok = false;
      for (const acc of accounts)
        if (oneOf(kind(acc), ['checking', 'personal_checking']) && open(acc) && ageDays(acc) >= 14) {
          ok = true;
          break;
        }
      if (!ok) return refuse;
    }
    if (type === 'business_checking') {
      if (accounts.some((acc) => get(acc, 'status') === 'CLOSED')) return refuse;
      if (!accounts.some((acc) => oneOf(kind(acc), ['checking', 'personal_checking']) && open(acc))) return refuse;
    }
    if (type === 'business_savings') {
      for (const acc of accounts) if (parseBalance(get(acc, 'current_holdings', get(acc, 'balance', 0n))) < 0) return refuse;
      let ok = false;
      for (const acc of accounts)
        if (kind(acc) === 'business_checking' && open(acc) && ageDays(acc) >= 30) {
          ok = true;
          break;
        }
      if (!ok) return refuse;
    }
    const id = deterministicId(`account:${s(user)}:${s(type)}:${s(cls)}`);
    const r = record(
      ['account_id', id],
      ['user_id', user],
      ['account_type', type],
      ['account_class', cls],
      ['current_holdings', '0.00'],
      ['status', 'OPEN'],
      ['date_opened', TODAY],
    );
    if (!addToDb(self.db, 'accounts', id, r)) return `Failed to open account: Account ID '${id}' may already exist.`;
    return (
      `Bank account opened successfully!\n  - Account ID: ${id}\n  - User ID: ${s(user)}\n  - Account Type: ${s(type)}\n  - Account Class: ${s(cls)}\n` +
      `  - Status: OPEN\n  - Initial Balance: $0.00\n  - Date Opened: ${TODAY}`
    );
  }),
  hidden('close_bank_account_7392', 'write', ['account_id', ['reason', 'Customer requested closure'], ['waive_early_closure_fee', false]], (self, a) => {
    const [id, reason, waive] = [v(a, 'account_id'), v(a, 'reason'), v(a, 'waive_early_closure_fee')];
    if (not(id)) return 'Error: Missing required parameter (account_id).';
    if (!inTable(self.db, 'accounts', id)) return `Error: Account '${s(id)}' not found.`;
    const account = row(self.db, 'accounts', id);
    if (get(account, 'status') === 'CLOSED') return `Error: Account '${s(id)}' is already closed.`;
    const balance = accountBalance(account);
    let fee: TValue = 0;
    if (not(waive)) {
      const level = get(account, 'level', '');
      const cls = get(account, 'class', '');
      const opened = get(account, 'date_opened', '');
      const config = cls === 'checking' ? lookupKey(CHECKING_EARLY, level) : cls === 'savings' ? lookupKey(SAVINGS_EARLY, level) : null;
      if (config !== null && truthy(opened)) {
        const date = dateOr(opened, null);
        if (date !== null && daysBetween(NOW, date) < config[1]) {
          if (balance < Number(config[0])) return 'Error: Account unable to be closed.';
          fee = config[0];
        }
      }
    }
    const remaining = minus(balance, fee);
    if (!same(remaining, 0n)) return `Error: Account balance must be $0.00 before closing. Current balance: $${f2(balance)}`;
    account.set('status', 'CLOSED');
    account.set('date_closed', TODAY);
    account.set('closure_reason', reason);
    account.set('early_closure_fee_waived', waive);
    return (
      `Bank account closed successfully!\n  - Account ID: ${s(id)}\n  - Account Type: ${s(get(account, 'account_type', 'N/A'))}\n` +
      `  - Account Class: ${s(get(account, 'account_class', 'N/A'))}\n  - Status: CLOSED\n  - Date Closed: ${TODAY}\n  - Reason: ${s(reason)}\n` +
      `  - Early Closure Fee Waived: ${truthy(waive) ? 'Yes' : 'No'}`
    );
  }),
  hidden('get_all_user_accounts_by_user_id_3847', 'read', ['user_id'], (self, a) => {
    const user = v(a, 'user_id');
    if (not(user)) return 'Error: Missing required parameter: user_id';
    const accounts = queryDatabaseTool(self.db, 'accounts', constraint('user_id', user));
    const cards = queryDatabaseTool(self.db, 'credit_card_accounts', constraint('user_id', user));
    const parts = [
      'User accounts retrieved successfully.',
      '',
      'Executed: get_all_user_accounts_by_user_id_3847',
      `Accounts for user ${s(user)}:`,
      '',
      'Bank Accounts:',
    ];
    parts.push(noRecords(accounts) ? '  No bank accounts found.' : accounts);
    parts.push('\nCredit Card Accounts:');
    parts.push(noRecords(cards) ? '  No credit card accounts found.' : cards);
    return parts.join('\n');
  }),
  hidden('transfer_funds_between_bank_accounts_7291', 'write', ['source_account_id', 'destination_account_id', 'amount'], (self, a) => {
    const [src, dst, raw] = [v(a, 'source_account_id'), v(a, 'destination_account_id'), v(a, 'amount')];
    if (not(src) || not(dst) || isNone(raw)) return 'Error: Missing required parameters (source_account_id, destination_account_id, amount).';
    const amount = floatOrNull(raw);
    if (amount === null) return `Error: Invalid amount '${s(raw)}'. Must be a number.`;
    if (amount <= 0) return 'Error: Transfer amount must be positive.';
    if (same(src, dst)) return 'Error: Source and destination accounts cannot be the same.';
    if (!inTable(self.db, 'accounts', src)) return `Error: Source account '${s(src)}' not found.`;
    if (!inTable(self.db, 'accounts', dst)) return `Error: Destination account '${s(dst)}' not found.`;
    const source = row(self.db, 'accounts', src);
    if (!oneOf(get(source, 'status'), ['ACTIVE', 'OPEN'])) return `Error: Source account '${s(src)}' is not active.`;
    const dest = row(self.db, 'accounts', dst);
    if (!oneOf(get(dest, 'status'), ['ACTIVE', 'OPEN'])) return `Error: Destination account '${s(dst)}' is not active.`;
    const sourceBalance = accountBalance(source);
    if (sourceBalance < amount) return `Error: Insufficient funds. Source account balance is $${f2(sourceBalance)}, but transfer amount is $${f2(amount)}.`;
    const destBalance = accountBalance(dest);
    const newSource = sourceBalance - amount;
    const newDest = destBalance + amount;
    source.set('current_holdings', `$${f2(newSource)}`);
    dest.set('current_holdings', `$${f2(newDest)}`);
    return `Transfer completed successfully!\n  - Amount: $${f2(amount)}\n  - From: ${s(src)} (new balance: $${f2(newSource)})\n  - To: ${s(dst)} (new balance: $${f2(newDest)})`;
  }),
  accountCredit('apply_checking_account_credit_5829', 'checking'),
  accountCredit('apply_savings_account_credit_6831', 'savings'),
  hidden('submit_interest_discrepancy_report_7294', 'write', ['account_id', 'user_id', 'expected_apy', 'actual_apy', 'amount_difference'], (self, a) => {
    const g = (k: string): TValue => v(a, k);
    if (not(g('account_id')) || not(g('user_id')) || isNone(g('expected_apy')) || isNone(g('actual_apy')) || isNone(g('amount_difference')))
      return 'Error: Missing required parameters.';
    const nums = ['expected_apy', 'actual_apy', 'amount_difference'].map((k) => floatOrNull(g(k)));
    if (nums.some((x) => x === null)) return 'Error: expected_apy, actual_apy, and amount_difference must be numbers.';
    const [expected, actual, diff] = nums as [number, number, number];
    const account = rowOrNull(self.db, 'accounts', g('account_id'));
    if (account === null) return `Error: Account '${s(g('account_id'))}' not found.`;
    const user = rowOrNull(self.db, 'users', g('user_id'));
    if (user === null) return `Error: User '${s(g('user_id'))}' not found.`;
    const id = `IDR_${deterministicId(`interest_report:${s(g('account_id'))}:${s(g('user_id'))}:${s(expected)}:${s(actual)}:${TODAY}`)}`;
    // Python parity: the report goes to `interest_discrepancy_reports`, a table TransactionalDB does not have: add_to_db writes nothing.
    return (
      `\nInterest Discrepancy Report Submitted Successfully!\n  - Report ID: ${id}\n  - Account: ${s(g('account_id'))} (${s(get(account, 'level', 'Unknown'))})\n` +
      `  - Customer: ${s(get(user, 'name', 'Unknown'))}\n  - Expected APY: ${s(expected)}%\n  - Actual APY: ${s(actual)}%\n` +
      `  - APY Difference: ${s(round4(expected - actual))}%\n  - Amount Difference: $${f2(diff)}\n  - Status: PENDING_REVIEW\n` +
      `\nThe backend team will investigate this discrepancy and ensure correct APY calculations are applied going forward.`
    );
  }),
  hidden('get_bank_account_transactions_9173', 'read', ['account_id'], (self, a) => {
    const id = v(a, 'account_id');
    if (not(id)) return 'Error: Missing required parameter: account_id';
    if (!inTable(self.db, 'accounts', id)) return `Error: Account '${s(id)}' not found.`;
    const rows = queryDb(self.db, 'bank_account_transaction_history', new Map([['account_id', id]]));
    const keyOf = (r: TValue): Stamp => {
      const text = s(get(r, 'date', ''));
      for (const fmt of ['%m/%d/%Y %H:%M:%S', '%m/%d/%Y'] as const) {
        const d = strptimeOrNull(text, fmt);
        if (d !== null) return d;
      }
      return DATETIME_MIN;
    };
    // Python parity: sorted(reverse=True) is stable — same-date records keep their stored order (#403).
    const sorted = rows
      .map((r) => [r, keyOf(r[1])] as const)
      .sort((x, y) => stampCompare(y[1], x[1]))
      .map((x) => x[0]);
    const parts = [
      'Bank account transactions retrieved successfully.',
      '',
      'Executed: get_bank_account_transactions_9173',
      `Transactions for account ${s(id)}:`,
    ];
    parts.push(sorted.length > 0 ? formatRecords('bank_account_transaction_history', sorted) : '\nNo transactions found for this account.');
    return parts.join('\n');
  }),
];

// Python parity: apply_checking_account_credit_5829 / apply_savings_account_credit_6831.
function accountCredit(name: string, kind: 'checking' | 'savings'): ToolDef {
  return hidden(name, 'write', ['account_id', 'amount', 'credit_type'], (self, a) => {
    const [id, raw, type] = [v(a, 'account_id'), v(a, 'amount'), v(a, 'credit_type')];
    if (not(id) || isNone(raw) || not(type)) return 'Error: Missing required parameters.';
    const amount = floatOrNull(raw);
    if (amount === null) return 'Error: Invalid credit amount. Must be a number.';
    if (amount <= 0) return 'Error: Credit amount must be positive.';
    const types = kind === 'checking' ? ['rebate_credit', 'fee_refund'] : ['interest_correction', 'fee_refund', 'goodwill_credit'];
    if (!oneOf(type, types)) return `Error: Invalid credit_type. Must be one of: ${repr(types)}`;
    if (!inTable(self.db, 'accounts', id)) return `Error: Account '${s(id)}' not found.`;
    const account = row(self.db, 'accounts', id);
    const cls = lower(get(account, 'class', ''));
    if (kind === 'checking' ? cls !== 'checking' : cls !== 'saving' && cls !== 'savings')
      return kind === 'checking'
        ? `Error: Account '${s(id)}' is not a checking account. Credits can only be applied to checking accounts.`
        : `Error: Account '${s(id)}' is not a savings account. This tool only applies to savings accounts.`;
    if (!oneOf(get(account, 'status'), ['ACTIVE', 'OPEN'])) return `Error: Account '${s(id)}' is not active.`;
    const current = accountBalance(account);
    const next = current + amount;
    account.set('current_holdings', kind === 'checking' ? `$${f2(next)}` : f2(next));
    const txnId = `txn_${deterministicId(`${kind}_credit:${s(id)}:${s(type)}:${s(amount)}:${TODAY}`)}`;
    const description =
      kind === 'checking'
        ? type === 'rebate_credit'
          ? 'REBATE CREDIT - CUSTOMER SERVICE'
          : 'FEE REFUND - CUSTOMER SERVICE'
        : type === 'interest_correction'
          ? 'INTEREST CORRECTION - CUSTOMER SERVICE'
          : type === 'fee_refund'
            ? 'FEE REFUND - CUSTOMER SERVICE'
            : 'GOODWILL CREDIT - CUSTOMER SERVICE';
    ownTable(self.db, 'bank_account_transaction_history')!.set(
      txnId,
      record(
        ['transaction_id', txnId],
        ['account_id', id],
        ['date', TODAY],
        ['description', description],
        ['amount', amount],
        ['type', type],
        ['status', 'posted'],
      ),
    );
    return (
      `\nCredit applied successfully!\n  - Transaction ID: ${txnId}\n  - Account: ${s(id)}\n  - Credit Type: ${s(type)}\n  - Amount: $${f2(amount)}\n` +
      `  - Previous Balance: $${f2(current)}\n  - New Balance: $${f2(next)}`
    );
  });
}
