/** banking_knowledge's discoverable debit-card tools that issue a card: order, and activate ×3 (new account, replacement, reissue). */
import type { TValue } from '../../../../py/pydantic';
import type { ToolDef } from '../toolkit';
import { floatOrNull, hidden, inTable, isNone, more, record, row, same, tidy, v } from './common';
import { addToDb, data } from './db-query';
import { deterministicId, f0, f2, float, get, oneOf, repr, s, TODAY, truthy, upper } from './py';

import { otherActive, activation, floatOrNullValue } from './debit-card-helpers';

export const DEBIT_CARD_ISSUE_TOOLS: readonly ToolDef[] = [
  hidden(
    'order_debit_card_5739',
    'write',
    ['account_id', 'user_id', 'delivery_option', 'delivery_fee', 'card_design', 'design_fee', 'shipping_address', ['excess_replacement_fee', null]],
    (self, a) => {
      const [accountId, userId, address] = [v(a, 'account_id'), v(a, 'user_id'), v(a, 'shipping_address')];
      let option = v(a, 'delivery_option');
      let design = v(a, 'card_design');
      const excessRaw = truthy(v(a, 'excess_replacement_fee')) ? v(a, 'excess_replacement_fee') : 0n;
      let deliveryFee: number | null = null;
      if (!isNone(v(a, 'delivery_fee'))) {
        deliveryFee = floatOrNull(v(a, 'delivery_fee'));
        if (deliveryFee === null) return 'Error: delivery_fee must be a number.';
      }
      let designFee: number | null = null;
      if (!isNone(v(a, 'design_fee'))) {
        designFee = floatOrNull(v(a, 'design_fee'));
        if (designFee === null) return 'Error: design_fee must be a number.';
      }
      const excessF = floatOrNull(excessRaw);
      const excess: TValue = excessF === null ? 0n : excessF;
      if (![truthy(accountId), truthy(userId), truthy(option), deliveryFee !== null, truthy(design), designFee !== null, truthy(address)].every(Boolean))
        return 'Error: Missing required parameters. Required: account_id, user_id, delivery_option, delivery_fee, card_design, design_fee, shipping_address.';
      const deliveries = ['STANDARD', 'EXPEDITED', 'RUSH'];
      if (!oneOf(upper(option), deliveries)) return `Error: Invalid delivery_option. Must be one of: ${repr(deliveries)}`;
      option = upper(option);
      const designs = ['CLASSIC', 'PREMIUM', 'CUSTOM'];
      if (!oneOf(upper(design), designs)) return `Error: Invalid card_design. Must be one of: ${repr(designs)}`;
      design = upper(design);
      if (!inTable(self.db, 'accounts', accountId)) return `Error: Account '${s(accountId)}' not found.`;
      const account = row(self.db, 'accounts', accountId);
      if (get(account, 'class') !== 'checking')
        return `Error: Debit cards can only be ordered for checking accounts. Account '${s(accountId)}' is a ${s(get(account, 'class'))} account.`;
      if (get(account, 'status') !== 'OPEN') return `Error: Account must be OPEN. Account '${s(accountId)}' has status: ${s(get(account, 'status'))}`;
      if (!same(get(account, 'user_id'), userId)) return `Error: Account '${s(accountId)}' does not belong to user '${s(userId)}'.`;
      const holdings = floatOrNullValue(
        s(get(account, 'current_holdings', '0'))
          .split(',')
          .join(''),
      );
      if (holdings < 25) return `Error: Account must have a minimum balance of $25. Current balance: $${f2(holdings)}`;
      for (const o of data(self.db, 'debit_card_orders').values())
        if (same(get(o, 'account_id'), accountId) && get(o, 'status') === 'PENDING')
          return `Error: There is already a pending debit card order for account '${s(accountId)}'.`;
      const active = [...data(self.db, 'debit_cards').values()].filter((c) => same(get(c, 'account_id'), accountId) && get(c, 'status') === 'ACTIVE').length;
      if (active >= 1) return `Error: Account '${s(accountId)}' already has an active debit card. Maximum 1 active card per checking account.`;
      const total = deliveryFee! + designFee! + float(excess);
      if (total > 0 && holdings < total) return `Error: Insufficient funds for fees. Total fees: $${f2(total)}. Current balance: $${f2(holdings)}`;
      const expected = { STANDARD: '7-10 business days', EXPEDITED: '3-5 business days', RUSH: '1-2 business days' }[option as 'RUSH'];
      const orderId = `dcord_${deterministicId(`debit_card_order:${s(accountId)}:${s(userId)}:${option}`, 12)}`;
      const order = record(
        ['order_id', orderId],
        ['account_id', accountId],
        ['user_id', userId],
        ['delivery_option', option],
        ['card_design', design],
        ['shipping_address', address],
        ['delivery_fee', deliveryFee],
        ['design_fee', designFee],
        ['excess_replacement_fee', excess],
        ['total_fee', total],
        ['order_date', TODAY],
        ['expected_delivery', expected],
        ['status', 'PENDING'],
      );
      if (!addToDb(self.db, 'debit_card_orders', orderId, order)) return 'Error: Failed to create debit card order. Order may already exist.';
      const excessPositive = more(excess, 0n);
      if (total > 0) {
        account.set('current_holdings', f2(holdings - total));
        const parts: string[] = [];
        if (deliveryFee! > 0) parts.push(`Delivery $${s(deliveryFee)}`);
        if (designFee! > 0) parts.push(`Design $${s(designFee)}`);
        if (excessPositive) parts.push(`Excess Replacement $${f0(excess)}`);
        const feeId = `btxn_dcfee_${orderId.slice(-8)}`;
        addToDb(
          self.db,
          'bank_account_transaction_history',
          feeId,
          record(
            ['transaction_id', feeId],
            ['account_id', accountId],
            ['date', TODAY],
            ['description', `DEBIT CARD ORDER FEE - ${parts.join(', ')}`],
            ['amount', -total],
            ['type', 'debit_card_fee'],
            ['status', 'posted'],
          ),
        );
      }
      const cardId = `dbc_${deterministicId(`debit_card:${s(accountId)}:${s(userId)}:${TODAY}`, 12)}`;
      const seed = `card_details:${cardId}`;
      const digits = (h: string, n: number): string =>
        [...h]
          .filter((c) => c >= '0' && c <= '9')
          .join('')
          .slice(0, n)
          .padStart(n, '0');
      const last4 = digits(deterministicId(`${seed}:last4`, 8), 4);
      const cvv = digits(deterministicId(`${seed}:cvv`, 6), 3);
      let holder = 'CARDHOLDER';
      if (inTable(self.db, 'users', userId)) holder = upper(get(row(self.db, 'users', userId), 'name', 'CARDHOLDER'));
      // Python parity: four years from the order date, the month's last day (February: 28).
      const [month, , year] = TODAY.split('/') as [string, string, string];
      const day = ['01', '03', '05', '07', '08', '10', '12'].includes(month) ? '31' : month === '02' ? '28' : '30';
      const expiration = `${month}/${day}/${Number(year) + 4}`;
      const existing = [...data(self.db, 'debit_cards').values()].filter((c) => same(get(c, 'account_id'), accountId));
      const closed = existing.find((c) => get(c, 'status') === 'CLOSED');
      let reason: TValue;
      if (closed !== undefined) {
        const why = get(closed, 'closure_reason', 'first_card');
        reason = oneOf(why, ['lost', 'stolen', 'fraud', 'fraud_suspected']) ? (why !== 'fraud_suspected' ? why : 'fraud') : 'first_card';
      } else reason = existing.length > 0 ? 'first_card' : 'new_account';
      addToDb(
        self.db,
        'debit_cards',
        cardId,
        record(
          ['card_id', cardId],
          ['account_id', accountId],
          ['user_id', userId],
          ['cardholder_name', holder],
          ['last_4_digits', last4],
          ['cvv', cvv],
          ['status', 'PENDING'],
          ['issue_date', TODAY],
          ['expiration_date', expiration],
          ['card_design', design],
          ['issue_reason', reason],
        ),
      );
      const out = [
        'Debit Card Order Confirmed',
        `Order ID: ${orderId}`,
        `Card ID: ${cardId}`,
        `Linked Account: ${s(accountId)}`,
        `Delivery Option: ${option}`,
        `Card Design: ${design}`,
        `Shipping Address: ${s(address)}`,
        `Expected Delivery: ${expected}`,
        '',
        'Note: Card will arrive with status PENDING. Customer must call to activate after receiving the card.',
      ];
      if (total > 0) {
        const details: string[] = [];
        if (deliveryFee! > 0) details.push(`Delivery: $${s(deliveryFee)}`);
        if (designFee! > 0) details.push(`Design: $${s(designFee)}`);
        if (excessPositive) details.push(`Excess Replacement: $${f0(excess)}`);
        out.push(`Total Fees: $${f2(total)} (${details.join(', ')}) - CHARGED to account ${s(accountId)}`);
        out.push(`New Account Balance: $${f2(holdings - total)}`);
      } else out.push('Total Fees: $0 (No additional charges)');
      return out.join('\n');
    },
  ),
  activation('activate_debit_card_8291', ['new_account', 'first_card'], (self, card, cardId) => {
    const off = otherActive(self, cardId, get(card, 'account_id'), (c) => {
      c.set('status', 'DEACTIVATED');
      c.set('deactivated_date', TODAY);
      c.set('deactivation_reason', 'New card activated');
    });
    const out = [
      'New Debit Card Activation Successful',
      `Card ID: ${s(cardId)}`,
      'Status: ACTIVE',
      `Activation Date: ${TODAY}`,
      '',
      'Your card is now ready to use at any ATM or point of sale terminal.',
      'For security, please sign the back of your card.',
    ];
    if (off.length > 0) out.push(`\nNote: Previous card(s) have been deactivated: ${off.join(', ')}`);
    return out.join('\n');
  }),
  activation('activate_debit_card_8292', ['lost', 'stolen', 'fraud'], (self, card, cardId) => {
    const reason = get(card, 'issue_reason', 'lost');
    const off = otherActive(self, cardId, get(card, 'account_id'), (c) => {
      c.set('status', 'DEACTIVATED');
      c.set('deactivated_date', TODAY);
      c.set('deactivation_reason', `Replacement card activated (${s(reason)})`);
    });
    const out = [
      'Replacement Debit Card Activation Successful',
      `Card ID: ${s(cardId)}`,
      `Replacement Reason: ${tidy(reason)}`,
      'Status: ACTIVE',
      `Activation Date: ${TODAY}`,
      '',
      'Your replacement card is now ready to use.',
      '',
      'IMPORTANT SECURITY REMINDERS:',
      '- Please review your recent transactions for any unauthorized charges',
      '- Report any suspicious activity immediately',
    ];
    if (reason === 'fraud') out.push('- Since fraud was suspected, we recommend changing your online banking password');
    if (off.length > 0) out.push(`\nPrevious card(s) have been deactivated for security: ${off.join(', ')}`);
    return out.join('\n');
  }),
  activation('activate_debit_card_8293', ['expired', 'damaged', 'upgrade', 'bank_reissue'], (self, card, cardId) => {
    const reason = get(card, 'issue_reason', 'expired');
    const grace = otherActive(self, cardId, get(card, 'account_id'), (c) => {
      c.set('status', 'GRACE_PERIOD');
      c.set('grace_period_ends', TODAY);
      c.set('deactivation_reason', `Reissued card activated (${s(reason)})`);
    });
    const out = [
      'Reissued Debit Card Activation Successful',
      `Card ID: ${s(cardId)}`,
      `Reissue Reason: ${tidy(reason)}`,
      'Status: ACTIVE',
      `Activation Date: ${TODAY}`,
      '',
      'Your reissued card is now ready to use.',
    ];
    if (grace.length > 0) {
      out.push(`\nNote: Your previous card(s) (${grace.join(', ')}) will remain active for 24 hours as a grace period.`);
      out.push('After 24 hours, the old card(s) will be automatically deactivated.');
    }
    if (oneOf(reason, ['expired', 'bank_reissue']))
      out.push('\nReminder: If your card number changed, please update any recurring payments with your new card details.');
    return out.join('\n');
  }),
];
