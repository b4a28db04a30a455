/**
 * banking_knowledge's discoverable agent tools on credit card accounts (`@is_discoverable_tool` methods of
 * `KnowledgeTools`): closure, statement credits, flags, payments, credit limit requests — what each checks, writes and answers.
 */
import { PyException } from '../../../../py/errors';
import type { TDict, TValue } from '../../../../py/pydantic';
import type { ToolDef } from '../toolkit';
import { accountBalance, floatOrNull, hidden, inTable, isNone, less, lte, moneyOrZero, not, record, row, same, tidy, v } from './common';
import { addToDb, data, updateRecord } from './db-query';
import { comma, deterministicId, dumpsIndent, f2, float, get, int, isInteger, oneOf, repr, s, TODAY, truthy, upper } from './py';
import { transactionId, cliRequestId, history, ccExists } from './discoverable-helpers';

export const CREDIT_CARD_TOOLS: readonly ToolDef[] = [
  hidden('log_credit_card_closure_reason_4521', 'write', ['credit_card_account_id', 'user_id', 'closure_reason'], (self, a) => {
    const [cc, user, reason] = [v(a, 'credit_card_account_id'), v(a, 'user_id'), v(a, 'closure_reason')];
    if (not(cc) || not(user) || not(reason)) return 'Error: Missing required parameters.';
    const reasons = ['annual_fee', 'not_using_card', 'found_better_card', 'unhappy_with_rewards', 'simplifying_finances', 'negative_experience', 'other'];
    if (!oneOf(reason, reasons)) return `Error: Invalid closure_reason. Must be one of: ${repr(reasons)}`;
    const id = `clsr_${deterministicId(`closure_reason:${s(cc)}:${s(user)}`, 12)}`;
    addToDb(
      self.db,
      'credit_card_closure_reasons',
      id,
      record(['record_id', id], ['credit_card_account_id', cc], ['user_id', user], ['closure_reason', reason], ['logged_at', TODAY], ['status', 'LOGGED']),
    );
    return (
      `Closure reason logged successfully.\n\nExecuted: log_credit_card_closure_reason_4521\n` +
      `Arguments: ${dumpsIndent(record(['credit_card_account_id', cc], ['user_id', user], ['closure_reason', reason]))}\n` +
      `Closure reason '${s(reason)}' logged for account ${s(cc)}.`
    );
  }),
  history(
    'get_closure_reason_history_8293',
    'credit_card_closure_reasons',
    'credit_card_account_id',
    'credit_card_account_id',
    'Closure reason history for credit card account',
    'Error: Missing required parameter: credit_card_account_id',
    '\nNo closure reason records found for this credit card account.',
    'Closure reason history retrieved successfully.',
  ),
  hidden('apply_statement_credit_8472', 'write', ['user_id', 'credit_card_account_id', 'amount', 'reason'], (self, a) => {
    const [user, cc, amount, reason] = [v(a, 'user_id'), v(a, 'credit_card_account_id'), v(a, 'amount'), v(a, 'reason')];
    if (not(user) || not(cc) || isNone(amount) || not(reason)) return 'Error: Missing required parameters (user_id, credit_card_account_id, amount, reason).';
    if (lte(amount, 0n)) return 'Error: Credit amount must be positive.';
    const reasons = [
      'goodwill_adjustment',
      'promotional_credit',
      'annual_fee_reversal',
      'late_fee_reversal',
      'interest_charge_reversal',
      'dispute_resolution',
      'price_match',
      'retention_offer',
      'error_correction',
      'other',
    ];
    if (!oneOf(reason, reasons)) return `Error: Invalid reason. Must be one of: ${repr(reasons)}`;
    if (!ccExists(self, cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    const id = transactionId(user, 'STATEMENT_CREDIT', reason, amount, 'Statement Credit');
    const r = record(
      ['transaction_id', id],
      ['user_id', user],
      ['credit_card_account_id', cc],
      ['credit_card_type', 'N/A'],
      ['merchant_name', 'Rho-Bank Statement Credit'],
      ['transaction_amount', `-$${f2(amount)}`],
      ['transaction_date', TODAY],
      ['category', 'Statement Credit'],
      ['status', 'COMPLETED'],
      ['rewards_earned', '0 points'],
      ['credit_reason', reason],
    );
    if (!addToDb(self.db, 'credit_card_transaction_history', id, r))
      return `Error: Failed to apply statement credit. Transaction ID '${id}' may already exist.`;
    return (
      `Statement credit applied successfully.\n\nExecuted: apply_statement_credit_8472\n  - Transaction ID: ${id}\n  - User ID: ${s(user)}\n` +
      `  - Account: ${s(cc)}\n  - Credit Amount: $${f2(amount)}\n  - Reason: ${tidy(reason)}\n  - Date: ${TODAY}`
    );
  }),
  hidden('apply_credit_card_account_flag_6147', 'write', ['credit_card_account_id', 'user_id', 'flag_type', 'expiration_date', 'reason'], (self, a) => {
    const [cc, user, flag, exp, reason] = ['credit_card_account_id', 'user_id', 'flag_type', 'expiration_date', 'reason'].map((k) => v(a, k)) as [
      TValue,
      TValue,
      TValue,
      TValue,
      TValue,
    ];
    if (not(cc) || not(user) || not(flag) || not(exp) || not(reason))
      return 'Error: Missing required parameters (credit_card_account_id, user_id, flag_type, expiration_date, reason).';
    const flags = ['annual_fee_waived', 'promotional_apr', 'rewards_bonus', 'other'];
    if (!oneOf(flag, flags)) return `Error: Invalid flag_type. Must be one of: ${repr(flags)}`;
    const reasons = ['retention_offer', 'loyalty_benefit', 'promotional', 'error_correction', 'other'];
    if (!oneOf(reason, reasons)) return `Error: Invalid reason. Must be one of: ${repr(reasons)}`;
    if (!ccExists(self, cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    const id = `ccflag_${deterministicId(`account_flag:${s(cc)}:${s(flag)}:${s(exp)}`, 12)}`;
    const r = record(
      ['flag_id', id],
      ['credit_card_account_id', cc],
      ['user_id', user],
      ['flag_type', flag],
      ['effective_date', TODAY],
      ['expiration_date', exp],
      ['reason', reason],
      ['applied_at', TODAY],
      ['status', 'ACTIVE'],
    );
    if (!addToDb(self.db, 'credit_card_account_flags', id, r)) return `Error: Failed to apply account flag. Flag ID '${id}' may already exist.`;
    return (
      `Account flag applied successfully!\n  - Flag ID: ${id}\n  - Account: ${s(cc)}\n  - User ID: ${s(user)}\n  - Flag Type: ${tidy(flag)}\n` +
      `  - Effective Date: ${TODAY}\n  - Expiration Date: ${s(exp)}\n  - Reason: ${tidy(reason)}`
    );
  }),
  hidden('close_credit_card_account_7834', 'write', ['credit_card_account_id', 'user_id'], (self, a) => {
    const [cc, user] = [v(a, 'credit_card_account_id'), v(a, 'user_id')];
    if (not(cc) || not(user)) return 'Error: Missing required parameters (credit_card_account_id, user_id).';
    if (!ccExists(self, cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    if (
      !updateRecord(self.db, 'credit_card_accounts', cc, [
        ['status', 'CLOSED'],
        ['closed_date', TODAY],
        ['closed_by', user],
      ])
    )
      return `Error: Failed to close credit card account '${s(cc)}'.`;
    return (
      `Credit card account closed successfully.\n\nExecuted: close_credit_card_account_7834\n` +
      `Arguments: ${dumpsIndent(record(['credit_card_account_id', cc], ['user_id', user]))}\nAccount ${s(cc)} has been closed.`
    );
  }),
  hidden('pay_credit_card_from_checking_9182', 'write', ['user_id', 'checking_account_id', 'credit_card_account_id', 'amount'], (self, a) => {
    const [user, chk, cc, raw] = [v(a, 'user_id'), v(a, 'checking_account_id'), v(a, 'credit_card_account_id'), v(a, 'amount')];
    if (not(user) || not(chk) || not(cc) || isNone(raw))
      return 'Error: Missing required parameters (user_id, checking_account_id, credit_card_account_id, amount).';
    const amount = floatOrNull(raw);
    if (amount === null) return 'Error: Invalid payment amount. Must be a positive number.';
    if (amount <= 0) return 'Error: Payment amount must be a positive number.';
    if (!inTable(self.db, 'accounts', chk)) return `Error: Checking account '${s(chk)}' not found.`;
    const checking = row(self.db, 'accounts', chk);
    if (!same(get(checking, 'user_id'), user)) return `Error: Checking account '${s(chk)}' does not belong to user '${s(user)}'.`;
    if (get(checking, 'class') !== 'checking') return `Error: Account '${s(chk)}' is not a checking account.`;
    const balance = accountBalance(checking);
    if (amount > balance) return `Error: Insufficient funds in checking account. Available balance: $${f2(balance)}, requested payment: $${f2(amount)}.`;
    if (!inTable(self.db, 'credit_card_accounts', cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    const card = row(self.db, 'credit_card_accounts', cc);
    if (!same(get(card, 'user_id'), user)) return `Error: Credit card account '${s(cc)}' does not belong to user '${s(user)}'.`;
    const ccBalance = moneyOrZero(get(card, 'current_balance', '$0.00'));
    if (amount > ccBalance)
      return `Error: Payment amount ($${f2(amount)}) exceeds credit card balance ($${f2(ccBalance)}). Please specify an amount up to the outstanding balance.`;
    const newChecking = balance - amount;
    const newCc = ccBalance - amount;
    checking.set('current_holdings', f2(newChecking));
    card.set('current_balance', `$${f2(newCc)}`);
    return (
      `Payment processed successfully!\n  - Payment Amount: $${f2(amount)}\n  - From Checking Account: ${s(chk)}\n  - To Credit Card Account: ${s(cc)}\n` +
      `  - New Checking Balance: $${f2(newChecking)}\n  - New Credit Card Balance: $${f2(newCc)}\nThe payment has been applied immediately.`
    );
  }),
  hidden('submit_credit_limit_increase_request_7392', 'write', ['credit_card_account_id', 'user_id', 'requested_increase_amount'], (self, a) => {
    const [cc, user, raw] = [v(a, 'credit_card_account_id'), v(a, 'user_id'), v(a, 'requested_increase_amount')];
    if (not(cc) || not(user) || isNone(raw)) return 'Error: Missing required parameters.';
    const f = floatOrNull(raw);
    if (f === null) return 'Error: Invalid requested_increase_amount. Must be a whole number.';
    if (!isInteger(f)) return 'Error: Invalid requested_increase_amount. Must be a whole number of dollars.';
    const amount = int(f);
    if (amount <= 0n) return 'Error: Requested increase amount must be positive.';
    if (!inTable(self.db, 'credit_card_accounts', cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    if (!same(get(row(self.db, 'credit_card_accounts', cc), 'user_id'), user))
      return `Error: Credit card account '${s(cc)}' does not belong to user '${s(user)}'.`;
    const id = cliRequestId(cc, user, amount);
    const r = record(
      ['request_id', id],
      ['credit_card_account_id', cc],
      ['user_id', user],
      ['requested_increase_amount', amount],
      ['submitted_at', TODAY],
      ['status', 'PENDING'],
    );
    if (!addToDb(self.db, 'credit_limit_increase_requests', id, r)) return 'Error: A similar request may already exist.';
    return (
      `Credit limit increase request submitted successfully.\n\nExecuted: submit_credit_limit_increase_request_7392\n  - Request ID: ${id}\n` +
      `  - Account: ${s(cc)}\n  - Requested Increase: $${comma(amount)}\n  - Status: PENDING`
    );
  }),
  history(
    'get_credit_limit_increase_history_4829',
    'credit_limit_increase_requests',
    'credit_card_account_id',
    'credit_card_account_id',
    'Credit limit increase history for account',
    'Error: Missing required parameter: credit_card_account_id',
    '\nNo credit limit increase requests found for this account.',
    'Credit limit increase history retrieved.',
  ),
  hidden('get_payment_history_6183', 'read', ['credit_card_account_id', 'months'], (self, a) => {
    const [cc, raw] = [v(a, 'credit_card_account_id'), v(a, 'months')];
    if (not(cc) || isNone(raw)) return 'Error: Missing required parameters (credit_card_account_id, months).';
    let months: bigint;
    try {
      months = int(raw);
    } catch (e) {
      if (e instanceof PyException && (e.pyType === 'ValueError' || e.pyType === 'TypeError'))
        return 'Error: Invalid months value. Must be a positive integer.';
      throw e;
    }
    if (months <= 0n) return 'Error: months must be a positive integer.';
    let payments = [...data(self.db, 'payment_history').values()].filter((p) => same(get(p, 'credit_card_account_id'), cc)) as TDict[];
    if (payments.length === 0) return `No payment history found for account '${s(cc)}'.`;
    const keyOf = (p: TDict): TValue => {
      const d = get(p, 'payment_date');
      return truthy(d) ? d : '';
    };
    // Python parity: list.sort(key=…, reverse=True) — stable, equal keys keep their order.
    payments = payments
      .map((p) => [p, keyOf(p)] as const)
      .sort((x, y) => (less(x[1], y[1]) ? 1 : less(y[1], x[1]) ? -1 : 0))
      .map((x) => x[0]);
    payments = payments.slice(0, Number(months > BigInt(payments.length) ? BigInt(payments.length) : months));
    let onTime = 0;
    for (const p of payments) {
      if (get(p, 'status') === 'ON_TIME') onTime++;
      else break;
    }
    const parts = [`Payment history for account '${s(cc)}' (last ${months} months):`, `Consecutive on-time payments: ${onTime}`];
    for (const p of payments)
      parts.push(`\n  - Payment Date: ${s(get(p, 'payment_date'))}\n    Amount: ${s(get(p, 'amount'))}\n    Status: ${s(get(p, 'status'))}`);
    return parts.join('\n');
  }),
  hidden('approve_credit_limit_increase_5847', 'write', ['credit_card_account_id', 'user_id', 'new_credit_limit'], (self, a) => {
    const [cc, user, newCredit] = [v(a, 'credit_card_account_id'), v(a, 'user_id'), v(a, 'new_credit_limit')];
    if (not(cc) || not(user) || isNone(newCredit)) return 'Error: Missing required parameters.';
    if (!inTable(self.db, 'credit_card_accounts', cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    const card = row(self.db, 'credit_card_accounts', cc);
    if (!same(get(card, 'user_id'), user)) return `Error: Credit card account '${s(cc)}' does not belong to user '${s(user)}'.`;
    let ineligible = false;
    for (const d of data(self.db, 'transaction_disputes').values())
      if (same(get(d, 'user_id'), user) && oneOf(get(d, 'status'), ['SUBMITTED', 'UNDER_REVIEW', 'PENDING'])) {
        ineligible = true;
        break;
      }
    if (!ineligible)
      for (const o of data(self.db, 'credit_card_orders').values())
        if (same(get(o, 'credit_card_account_id'), cc) && oneOf(get(o, 'status'), ['PENDING', 'PROCESSING', 'SHIPPED'])) {
          ineligible = true;
          break;
        }
    if (!ineligible && oneOf(upper(get(card, 'account_status', '')), ['PAST_DUE', 'DELINQUENT', 'COLLECTIONS', 'CLOSED'])) ineligible = true;
    if (ineligible) return 'Error: Credit limit increase request cannot be approved at this time.';
    const current = moneyOrZero(get(card, 'credit_limit', '$0.00'));
    const limit = float(newCredit);
    card.set('credit_limit', `$${f2(limit)}`);
    const id = cliRequestId(cc, user, limit - current);
    addToDb(
      self.db,
      'credit_limit_increase_requests',
      id,
      record(
        ['request_id', id],
        ['credit_card_account_id', cc],
        ['user_id', user],
        ['previous_limit', `$${f2(current)}`],
        ['new_limit', `$${f2(limit)}`],
        ['increase_amount', `$${f2(limit - current)}`],
        ['decision_date', TODAY],
        ['status', 'APPROVED'],
      ),
    );
    return (
      `Credit limit increase approved!\n  - Account: ${s(cc)}\n  - Previous Limit: $${f2(current)}\n  - New Limit: $${f2(limit)}\n` +
      `  - Increase: $${f2(limit - current)}\n  - Effective Date: ${TODAY}\nThe customer will receive a confirmation email.`
    );
  }),
  hidden('deny_credit_limit_increase_5848', 'write', ['credit_card_account_id', 'user_id', 'denial_reason'], (self, a) => {
    const [cc, user, reason] = [v(a, 'credit_card_account_id'), v(a, 'user_id'), v(a, 'denial_reason')];
    if (not(cc) || not(user) || not(reason)) return 'Error: Missing required parameters.';
    const reasons = [
      'insufficient_account_age',
      'cooldown_period_active',
      'pending_disputes',
      'pending_replacement_card',
      'past_due_balance',
      'high_utilization',
      'insufficient_payment_history',
      'requested_amount_exceeds_limit',
      'other',
    ];
    if (!oneOf(reason, reasons)) return `Error: Invalid denial_reason. Must be one of: ${reasons.join(', ')}`;
    if (!inTable(self.db, 'credit_card_accounts', cc)) return `Error: Credit card account '${s(cc)}' not found.`;
    const id = cliRequestId(cc, user, 0);
    addToDb(
      self.db,
      'credit_limit_increase_requests',
      id,
      record(['request_id', id], ['credit_card_account_id', cc], ['user_id', user], ['denial_reason', reason], ['decision_date', TODAY], ['status', 'DENIED']),
    );
    return `Credit limit increase request denied.\n  - Account: ${s(cc)}\n  - Denial Reason: ${s(reason)}\n  - Date: ${TODAY}\nThe customer will receive a notification explaining the denial.`;
  }),
];
