/** What banking_knowledge's debit-card tools share (debit-card-issue.ts, debit-card-controls.ts): PIN checks, activation, card lookups, default limits. */
import type { TDict, TValue } from '../../../../py/pydantic';
import type { ToolDef, Toolkit } from '../toolkit';
import { hidden, inTable, not, row, same, v, type Args } from './common';
import { data } from './db-query';
import { float, get, isdigit, len, oneOf, s, TODAY, truthy } from './py';

import type { PyValue } from '../../../../py/value';

export const pv = (x: TValue): PyValue => x as PyValue;

// Python parity: tools._validate_pin.
export function pinError(pin: TValue): string | null {
  if (not(pin) || !isdigit(pin) || len(pin) !== 4) return 'PIN must be exactly 4 digits.';
  const seq = ['0123', '1234', '2345', '3456', '4567', '5678', '6789', '9876', '8765', '7654', '6543', '5432', '4321', '3210'];
  if (oneOf(pin, seq)) return 'PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.';
  if (new Set(pin as string).size === 1) return 'PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.';
  return null;
}

export const REASON_TOOL: Record<string, string> = {
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
export function validateActivation(self: Toolkit, a: Args, allowed: readonly string[], toolName: string): { error: string } | { card: TDict } {
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

export const ACTIVATION = ['card_id', 'last_4_digits', 'expiration_date', 'cvv', 'pin'];

/** The other ACTIVE cards of the account, in table order, each changed by `change`. */
export function otherActive(self: Toolkit, cardId: TValue, accountId: TValue, change: (card: TDict) => void): string[] {
  const out: string[] = [];
  for (const [id, c] of data(self.db, 'debit_cards')) {
    if (id !== cardId && same(get(c, 'account_id'), accountId) && get(c, 'status') === 'ACTIVE') {
      change(row(self.db, 'debit_cards', id));
      out.push(id);
    }
  }
  return out;
}

export const DEFAULT_ATM_LIMITS: Record<string, bigint> = {
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

export const cardTool = (name: string, run: (self: Toolkit, a: Args, card: TDict, cardId: string) => TValue, missing: string) =>
  hidden(name, 'write', ['card_id'], (self, a) => {
    const cardId = v(a, 'card_id');
    if (not(cardId)) return missing;
    if (!inTable(self.db, 'debit_cards', cardId)) return `Error: Debit card '${s(cardId)}' not found.`;
    return run(self, a, row(self.db, 'debit_cards', cardId), cardId as string);
  });

export function activation(name: string, allowed: readonly string[], done: (self: Toolkit, card: TDict, cardId: TValue) => string): ToolDef {
  return hidden(name, 'write', ACTIVATION, (self, a) => {
    const checked = validateActivation(self, a, allowed, name);
    if ('error' in checked) return checked.error;
    const card = checked.card;
    card.set('status', 'ACTIVE');
    card.set('activated_date', TODAY);
    return done(self, card, v(a, 'card_id'));
  });
}

/** `float(str(x).replace(",", ""))`, 0.0 when that raises ValueError. */
export function floatOrNullValue(text: string): number {
  try {
    return float(text);
  } catch (e) {
    if (e instanceof Error && 'pyType' in e && (e as { pyType: string }).pyType === 'ValueError') return 0;
    throw e;
  }
}
