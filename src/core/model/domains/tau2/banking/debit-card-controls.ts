/** banking_knowledge's discoverable debit-card tools on an issued card: close, freeze, unfreeze, alerts, PINs, listing, limits. */
import type { TDict, TValue } from '../../../../py/pydantic';
import type { ToolDef } from '../toolkit';
import { dateOr, floatOrNull, hidden, inTable, isNone, less, not, row, same, tidy, v, lte } from './common';
import { data } from './db-query';
import { daysBetween, dumpsIndent, get, int, isdigit, isInteger, len, lower, oneOf, repr, s, strptime, TODAY, truthy } from './py';
import { mul, sub } from '../../../../py/ops';
import { pv, pinError, DEFAULT_ATM_LIMITS, cardTool } from './debit-card-helpers';

export const DEBIT_CARD_CONTROL_TOOLS: readonly ToolDef[] = [
  hidden('close_debit_card_4721', 'write', ['card_id', 'reason'], (self, a) => {
    const [cardId, raw] = [v(a, 'card_id'), v(a, 'reason')];
    if (not(cardId) || not(raw)) return 'Error: Missing required parameters. Required: card_id, reason.';
    const reasons = ['lost', 'stolen', 'fraud_suspected', 'damaged', 'no_longer_needed', 'account_closing'];
    if (!oneOf(lower(raw), reasons)) return `Error: Invalid reason. Must be one of: ${repr(reasons)}`;
    const reason = lower(raw);
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    const card = row(self.db, 'debit_cards', cardId);
    if (!oneOf(get(card, 'status'), ['ACTIVE', 'PENDING']))
      return `Error: Debit card '${s(cardId)}' cannot be closed. Current status: ${s(get(card, 'status'))}. Only ACTIVE or PENDING cards can be closed.`;
    const previous = get(card, 'status');
    card.set('status', 'CLOSED');
    card.set('closed_date', TODAY);
    card.set('closure_reason', reason);
    const out = [
      'Debit Card Closed Successfully',
      `Card ID: ${s(cardId)}`,
      `Previous Status: ${s(previous)}`,
      'New Status: CLOSED',
      `Closure Reason: ${tidy(reason)}`,
      `Closure Date: ${TODAY}`,
      '',
    ];
    if (['lost', 'stolen', 'fraud_suspected'].includes(reason)) {
      out.push('IMPORTANT: This card has been immediately deactivated for security.', 'Any pending transactions may still be processed.');
      if (reason === 'fraud_suspected')
        out.push(
          'Please advise the customer to review recent transactions and file disputes for any unauthorized charges.',
          'Also recommend changing their online banking password.',
        );
    }
    out.push(
      '',
      'Note: This card cannot be reactivated. If the customer needs a new card, they can order one through the standard ordering process.',
      'Any recurring payments linked to this card will need to be updated with new payment information.',
    );
    return out.join('\n');
  }),
  cardTool(
    'freeze_debit_card_3892',
    (_self, _a, card, cardId) => {
      if (get(card, 'status') === 'FROZEN') return `Error: Debit card '${cardId}' is already frozen.`;
      if (get(card, 'status') !== 'ACTIVE')
        return `Error: Debit card '${cardId}' cannot be frozen. Current status: ${s(get(card, 'status'))}. Only ACTIVE cards can be frozen.`;
      card.set('status', 'FROZEN');
      card.set('frozen_date', TODAY);
      return [
        'Debit Card Frozen Successfully',
        `Card ID: ${cardId}`,
        'Status: FROZEN',
        `Frozen Date: ${TODAY}`,
        '',
        'While frozen:',
        '- All new purchase transactions will be declined',
        '- Recurring payments and subscriptions will be declined',
        '- Pending transactions already authorized may still process',
        '',
        'To unfreeze, the customer can call customer service or use the mobile app.',
        'If the card is confirmed lost or stolen, recommend closing the card permanently instead.',
      ].join('\n');
    },
    'Error: Missing required parameter: card_id.',
  ),
  cardTool(
    'unfreeze_debit_card_3893',
    (self, _a, card, cardId) => {
      if (get(card, 'status') === 'ACTIVE') return `Error: Debit card '${cardId}' is already active.`;
      if (get(card, 'status') !== 'FROZEN')
        return `Error: Debit card '${cardId}' cannot be unfrozen. Current status: ${s(get(card, 'status'))}. Only FROZEN cards can be unfrozen.`;
      const accountId = get(card, 'account_id');
      if (truthy(accountId) && inTable(self.db, 'accounts', accountId) && get(row(self.db, 'accounts', accountId), 'status') !== 'OPEN')
        return `Error: The linked checking account '${s(accountId)}' is no longer open. Card cannot be unfrozen.`;
      card.set('status', 'ACTIVE');
      card.set('unfrozen_date', TODAY);
      return [
        'Debit Card Unfrozen Successfully',
        `Card ID: ${cardId}`,
        'Status: ACTIVE',
        `Unfrozen Date: ${TODAY}`,
        '',
        'The card is now active and ready to use immediately.',
        'All transactions will process normally.',
      ].join('\n');
    },
    'Error: Missing required parameter: card_id.',
  ),
  hidden('clear_debit_card_fraud_alert_4892', 'write', ['card_id', 'reason'], (self, a) => {
    const [cardId, reason] = [v(a, 'card_id'), v(a, 'reason')];
    if (not(cardId)) return 'Error: Missing required parameter: card_id.';
    if (not(reason)) return 'Error: Missing required parameter: reason.';
    const reasons = ['customer_verified', 'velocity_clear'];
    if (!oneOf(reason, reasons)) return `Error: Invalid reason '${s(reason)}'. Must be one of: ${reasons.join(', ')}`;
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    const card = row(self.db, 'debit_cards', cardId);
    if (reason === 'velocity_clear') {
      if (not(get(card, 'velocity_blocked', false))) return `Error: Debit card '${s(cardId)}' does not have an active velocity block.`;
      card.set('velocity_blocked', false);
      card.set('velocity_cleared_date', TODAY);
      return [
        'Velocity Block Cleared Successfully',
        `Card ID: ${s(cardId)}`,
        `Cleared Date: ${TODAY}`,
        '',
        'The card is now unblocked and ready for normal use.',
        'The velocity monitoring will continue - if the same unusual patterns recur,',
        'the card may be blocked again automatically.',
      ].join('\n');
    }
    if (not(get(card, 'fraud_alert_active', false))) return `Error: Debit card '${s(cardId)}' does not have an active fraud alert.`;
    if (get(card, 'alert_source') === 'bank_initiated')
      return "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud detection system and cannot be cleared by customer service agents. Please transfer the customer to the security team using transfer_to_human_agents.";
    card.set('fraud_alert_active', false);
    card.set('alert_source', null);
    card.set('fraud_alert_cleared_date', TODAY);
    return [
      'Fraud Alert Cleared Successfully',
      `Card ID: ${s(cardId)}`,
      `Cleared Date: ${TODAY}`,
      '',
      'The fraud alert has been removed from the card.',
      'All transactions will process normally.',
      '',
      'Remind the customer to review recent transactions and report any unauthorized charges.',
    ].join('\n');
  }),
  hidden('reset_debit_card_pin_6284', 'write', ['card_id', 'last_4_digits', 'new_pin'], (self, a) => {
    const [cardId, last4, pin] = [v(a, 'card_id'), v(a, 'last_4_digits'), v(a, 'new_pin')];
    if (![cardId, last4, pin].every(truthy)) return 'Error: Missing required parameters. Required: card_id, last_4_digits, new_pin.';
    if (!isdigit(last4) || len(last4) !== 4) return 'Error: Last 4 digits must be exactly 4 digits.';
    const pe = pinError(pin);
    if (pe) return `Error: ${pe}`;
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    const card = row(self.db, 'debit_cards', cardId);
    if (!same(get(card, 'last_4_digits'), last4)) return 'Error: Card verification failed. The last 4 digits do not match our records.';
    if (get(card, 'status') !== 'ACTIVE')
      return `Error: Cannot reset PIN. Card status is ${s(get(card, 'status'))}. Only ACTIVE cards can have their PIN reset.`;
    card.set('pin_last_changed', TODAY);
    card.set('pin_locked', false);
    card.set('pin_attempts_remaining', 3n);
    return [
      'Debit Card PIN Reset Successfully',
      `Card ID: ${s(cardId)}`,
      `PIN Changed: ${TODAY}`,
      '',
      'The new PIN is effective immediately.',
      'Your card has been unlocked and is ready to use.',
      'Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.',
      '',
      'Security reminder: Never share your PIN with anyone.',
    ].join('\n');
  }),
  hidden('change_debit_card_pin_6285', 'write', ['card_id', 'current_pin', 'new_pin'], (self, a) => {
    const [cardId, current, pin] = [v(a, 'card_id'), v(a, 'current_pin'), v(a, 'new_pin')];
    if (![cardId, current, pin].every(truthy)) return 'Error: Missing required parameters. Required: card_id, current_pin, new_pin.';
    if (!isdigit(current) || len(current) !== 4) return 'Error: Current PIN must be exactly 4 digits.';
    const pe = pinError(pin);
    if (pe) return `Error: ${pe}`;
    if (same(current, pin)) return 'Error: New PIN must be different from current PIN.';
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    const card = row(self.db, 'debit_cards', cardId);
    if (get(card, 'status') !== 'ACTIVE')
      return `Error: Cannot change PIN. Card status is ${s(get(card, 'status'))}. Only ACTIVE cards can have their PIN changed.`;
    card.set('pin_last_changed', TODAY);
    return [
      'Debit Card PIN Changed Successfully',
      `Card ID: ${s(cardId)}`,
      `PIN Changed: ${TODAY}`,
      '',
      'The new PIN is effective immediately.',
      'Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.',
      '',
      'Security reminder: Never share your PIN with anyone.',
    ].join('\n');
  }),
  hidden('get_debit_cards_by_account_id_7823', 'read', ['account_id'], (self, a) => {
    const accountId = v(a, 'account_id');
    if (not(accountId)) return "Error: Missing required parameter 'account_id'.";
    if (!inTable(self.db, 'accounts', accountId)) return `Error: Account '${s(accountId)}' not found.`;
    const cls = lower(get(row(self.db, 'accounts', accountId), 'class', ''));
    if (cls !== 'checking' && cls !== 'business_checking')
      return `Error: Account '${s(accountId)}' is not a checking account. Debit cards are only available for checking accounts.`;
    const cards: TDict[] = [];
    for (const [id, c] of data(self.db, 'debit_cards')) {
      if (!same(get(c, 'account_id'), accountId)) continue;
      const info: TDict = new Map([['card_id', id]]);
      for (const [k, x] of c as TDict) info.set(k, x);
      const move = (from: string, to: string): void => {
        const x = info.get(from)!;
        info.delete(from);
        info.set(to, x);
      };
      if (info.has('last_4_digits') && !info.has('card_number_last_4')) move('last_4_digits', 'card_number_last_4');
      if (info.has('issue_date') && !info.has('date_issued')) move('issue_date', 'date_issued');
      else if (info.has('created_date') && !info.has('date_issued')) move('created_date', 'date_issued');
      cards.push(info);
    }
    if (cards.length === 0) return `No debit cards found for account '${s(accountId)}'.`;
    const keyOf = (c: TDict): TValue => (truthy(get(c, 'date_issued')) ? get(c, 'date_issued') : '');
    // Python parity: list.sort(key=…, reverse=True), stable.
    const sorted = cards
      .map((c) => [c, keyOf(c)] as const)
      .sort((x, y) => (less(x[1], y[1]) ? 1 : less(y[1], x[1]) ? -1 : 0))
      .map((x) => x[0]);
    return dumpsIndent(sorted);
  }),
  hidden('request_temporary_debit_card_limit_increase_8374', 'write', ['card_id', 'limit_type', 'new_limit'], (self, a) => {
    const [cardId, type, raw] = [v(a, 'card_id'), v(a, 'limit_type'), v(a, 'new_limit')];
    if (not(cardId)) return 'Error: Missing required parameter: card_id.';
    if (not(type)) return 'Error: Missing required parameter: limit_type.';
    if (!oneOf(type, ['atm', 'purchase'])) return `Error: Invalid limit_type '${s(type)}'. Must be 'atm' or 'purchase'.`;
    if (isNone(raw)) return 'Error: Missing required parameter: new_limit.';
    const f = floatOrNull(raw);
    if (f === null) return `Error: new_limit must be an integer, got '${s(raw)}'.`;
    if (!isInteger(f)) return `Error: new_limit must be an integer, got '${s(f)}'.`;
    const newLimit = int(f);
    if (newLimit <= 0n) return 'Error: new_limit must be a positive amount.';
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    const card = row(self.db, 'debit_cards', cardId);
    if (get(card, 'status') !== 'ACTIVE')
      return `Error: Debit card '${s(cardId)}' is not active. Current status: ${s(get(card, 'status'))}. Only ACTIVE cards can have limit increases.`;
    const accountId = get(card, 'account_id');
    if (not(accountId) || !inTable(self.db, 'accounts', accountId)) return `Error: Could not find linked account for debit card '${s(cardId)}'.`;
    const account = row(self.db, 'accounts', accountId);
    if (get(account, 'status') !== 'OPEN')
      return `Error: The linked account '${s(accountId)}' is not in good standing. Account status: ${s(get(account, 'status'))}.`;
    const opened = get(account, 'date_opened');
    if (truthy(opened)) {
      const date = dateOr(opened, null);
      if (date !== null) {
        const age = daysBetween(strptime(TODAY, '%m/%d/%Y'), date);
        if (age < 60) return `Error: Account must be at least 60 days old for a temporary limit increase. Account age: ${age} days.`;
      }
    }
    let current: TValue;
    let field: string;
    let name: string;
    if (type === 'atm') {
      current = get(card, 'daily_atm_limit');
      field = 'daily_atm_limit';
      name = 'Daily ATM Withdrawal Limit';
      if (current === null) {
        const level = lower(get(account, 'level', ''));
        if (level.includes('light green'))
          return 'Error: Light Green Account (teen checking) cards have policy-based limits that cannot be modified. The daily ATM withdrawal limit of $150 is fixed by account policy for safety reasons. The customer may request the parent/guardian to withdraw cash from their own account if needed.';
        current = Object.hasOwn(DEFAULT_ATM_LIMITS, level) ? DEFAULT_ATM_LIMITS[level]! : null;
        if (current === null)
          return `Error: Could not determine the default ATM limit for account type '${s(get(account, 'level'))}'. Please verify the account type.`;
      }
    } else {
      current = get(card, 'daily_purchase_limit');
      field = 'daily_purchase_limit';
      name = 'Daily Purchase Limit';
    }
    if (current === null)
      return `Error: The card does not have a ${name.toLowerCase()} configured. This may be a restricted account type where limits are set by account policy and cannot be modified.`;
    const maxAllowed = int(mul(pv(current), pv(1.5)) as TValue);
    if (newLimit > maxAllowed)
      return `Error: Requested limit $${newLimit} exceeds the maximum allowed temporary increase. Maximum temporary limit is $${maxAllowed} (150% of current $${s(current)} limit).`;
    if (lte(newLimit, current)) return `Error: Requested limit $${newLimit} is not higher than the current limit of $${s(current)}.`;
    card.set(field, newLimit);
    card.set(`temporary_${s(type)}_limit_increase`, true);
    card.set(`original_${s(type)}_limit`, current);
    card.set(`temporary_${s(type)}_limit_expires`, TODAY);
    return [
      `Temporary ${name} Increase Granted Successfully`,
      `Card ID: ${s(cardId)}`,
      `Previous Limit: $${s(current)}`,
      `New Temporary Limit: $${newLimit}`,
      `Increase Amount: $${s(sub(pv(newLimit), pv(current)) as TValue)}`,
      '',
      'Important Information:',
      '- This temporary increase expires in 24 hours',
      `- After expiration, the limit will revert to $${s(current)}`,
      '- Only one temporary increase is allowed per 24-hour period',
      '',
      'Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its own',
      'per-transaction or daily limits that Rho-Bank cannot override. The customer may need to',
      'use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.',
    ].join('\n');
  }),
];
