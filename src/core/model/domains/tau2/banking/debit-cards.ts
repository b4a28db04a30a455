/** banking_knowledge's discoverable debit-card tools (order, activate ×3, close, freeze, unfreeze, alerts, PINs, limits, listing). */
import type { TDict, TValue } from '../../../../py/pydantic';
import type { ToolDef, Toolkit } from '../toolkit';
import { dateOr, floatOrNull, hidden, inTable, isNone, less, more, not, record, row, same, tidy, v, lte, type Args } from './common';
import { addToDb, data } from './db-query';
import {
  daysBetween,
  deterministicId,
  dumpsIndent,
  f0,
  f2,
  float,
  get,
  int,
  isdigit,
  isInteger,
  len,
  lower,
  oneOf,
  repr,
  s,
  strptime,
  TODAY,
  truthy,
  upper,
} from './py';
import { mul, sub } from '../../../../py/ops';
import type { PyValue } from '../../../../py/value';

const pv = (x: TValue): PyValue => x as PyValue;

// Python parity: tools._validate_pin.
function pinError(pin: TValue): string | null {
  if (not(pin) || !isdigit(pin) || len(pin) !== 4) return 'PIN must be exactly 4 digits.';
  const seq = ['0123', '1234', '2345', '3456', '4567', '5678', '6789', '9876', '8765', '7654', '6543', '5432', '4321', '3210'];
  if (oneOf(pin, seq)) return 'PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.';
  if (new Set(pin as string).size === 1) return 'PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.';
  return null;
}

const REASON_TOOL: Record<string, string> = {
  new_account: 'activate_debit_card_8291',
  first_card: 'activate_debit_card_8291',
  lost: 'activate_debit_card_8292',
  stolen: 'activate_debit_card_8292',
  fraud: 'activate_debit_card_8292',
  expired: 'activate_debit_card_8293',
  damaged: 'activate_debit_card_8293',
  upgrade: 'activate_debit_card_8293',
  bank_reissue: 'activate_debit_card_8293',
};

// Python parity: tools._validate_activation_common.
function validateActivation(self: Toolkit, a: Args, allowed: readonly string[], toolName: string): { error: string } | { card: TDict } {
  const [cardId, last4, exp, cvv, pin] = ['card_id', 'last_4_digits', 'expiration_date', 'cvv', 'pin'].map((k) => v(a, k)) as [
    TValue,
    TValue,
    TValue,
    TValue,
    TValue,
  ];
  if (![cardId, last4, exp, cvv, pin].every(truthy))
    return { error: 'Error: Missing required parameters. Required: card_id, last_4_digits, expiration_date, cvv, pin.' };
  const pe = pinError(pin);
  if (pe) return { error: `Error: ${pe}` };
  if (!isdigit(cvv) || len(cvv) !== 3) return { error: 'Error: CVV must be exactly 3 digits.' };
  if (!isdigit(last4) || len(last4) !== 4) return { error: 'Error: Last 4 digits must be exactly 4 digits.' };
  if (!inTable(self.db, 'debit_cards', cardId)) return { error: `Error: Debit card '${s(cardId)}' not found.` };
  const card = row(self.db, 'debit_cards', cardId);
  const reason = get(card, 'issue_reason', 'new_account');
  if (!oneOf(reason, allowed)) {
    const correct = typeof reason === 'string' && Object.hasOwn(REASON_TOOL, reason) ? REASON_TOOL[reason]! : 'unknown';
    return { error: `Error: Wrong activation tool. This card has issue_reason='${s(reason)}'. Please use ${correct} instead of ${toolName}.` };
  }
  if (get(card, 'status') === 'ACTIVE') return { error: `Error: Debit card '${s(cardId)}' is already active.` };
  if (get(card, 'status') !== 'PENDING')
    return { error: `Error: Debit card '${s(cardId)}' cannot be activated. Current status: ${s(get(card, 'status'))}. Only PENDING cards can be activated.` };
  if (!same(get(card, 'last_4_digits'), last4)) return { error: 'Error: Card verification failed. The last 4 digits do not match our records.' };
  const accountId = get(card, 'account_id');
  if (truthy(accountId) && inTable(self.db, 'accounts', accountId)) {
    const account = row(self.db, 'accounts', accountId);
    if (get(account, 'status') !== 'OPEN')
      return { error: `Error: The linked checking account '${s(accountId)}' is no longer open. Card cannot be activated.` };
  }
  return { card };
}

const ACTIVATION = ['card_id', 'last_4_digits', 'expiration_date', 'cvv', 'pin'];

/** The other ACTIVE cards of the account, in table order, each changed by `change`. */
function otherActive(self: Toolkit, cardId: TValue, accountId: TValue, change: (card: TDict) => void): string[] {
  const out: string[] = [];
  for (const [id, c] of data(self.db, 'debit_cards')) {
    if (id !== cardId && same(get(c, 'account_id'), accountId) && get(c, 'status') === 'ACTIVE') {
      change(row(self.db, 'debit_cards', id));
      out.push(id);
    }
  }
  return out;
}

const DEFAULT_ATM_LIMITS: Record<string, bigint> = {
  'blue account': 500n,
  'green account': 600n,
  'light blue account': 400n,
  'green fee-free account': 500n,
  'evergreen account': 750n,
  'bluest account': 1500n,
  'dark green account': 300n,
  'gold years account': 600n,
  'purple account': 1000n,
};

const cardTool = (name: string, run: (self: Toolkit, a: Args, card: TDict, cardId: string) => TValue, missing: string) =>
  hidden(name, 'write', ['card_id'], (self, a) => {
    const cardId = v(a, 'card_id');
    if (not(cardId)) return missing;
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    return run(self, a, row(self.db, 'debit_cards', cardId), cardId as string);
  });

function activation(name: string, allowed: readonly string[], done: (self: Toolkit, card: TDict, cardId: TValue) => string): ToolDef {
  return hidden(name, 'write', ACTIVATION, (self, a) => {
    const checked = validateActivation(self, a, allowed, name);
    if ('error' in checked) return checked.error;
    const card = checked.card;
    card.set('status', 'ACTIVE');
    card.set('activated_date', TODAY);
    return done(self, card, v(a, 'card_id'));
  });
}

export const DEBIT_CARD_TOOLS: readonly ToolDef[] = [
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

/** `float(str(x).replace(",", ""))`, 0.0 when that raises ValueError. */
function floatOrNullValue(text: string): number {
  try {
    return float(text);
  } catch (e) {
    if (e instanceof Error && 'pyType' in e && (e as { pyType: string }).pyType === 'ValueError') return 0;
    throw e;
  }
}
