/**
 * What banking_knowledge's discoverable agent tools share (agent-transactions.ts, agent-credit-cards.ts,
 * agent-bank-accounts.ts): the ids they derive, the read tools that list a table's rows, the early-closure fee tables.
 */
import type { TValue } from '../../../../py/pydantic';
import type { Toolkit } from '../toolkit';
import { hidden, join, not, v } from './common';
import { constraint, noRecords, queryDatabaseTool } from './db-query';
import { deterministicId, f2, s, typeError } from './py';

/** `generate_transaction_id(user_id, card_type, merchant, amount, category)`. */
export const transactionId = (userId: TValue, cardType: TValue, merchant: TValue, amount: TValue, category: TValue): string =>
  `txn_${deterministicId(join(':', ['transaction', userId, cardType, merchant, f2(amount), category]), 12)}`;

export const disputeId = (userId: TValue, txnId: TValue): string => `dsp_${deterministicId(`dispute:${s(userId)}:${s(txnId)}`, 12)}`;
export const cliRequestId = (cc: TValue, user: TValue, amount: TValue): string => `cli_${deterministicId(`cli_request:${s(cc)}:${s(user)}:${f2(amount)}`, 12)}`;

/** The read tools that list a table's rows for one key, with a heading. */
export function history(name: string, table: string, field: string, arg: string, heading: string, missing: string, empty: string, title0: string) {
  return hidden(name, 'read', [arg], (self, a) => {
    const key = v(a, arg);
    if (not(key)) return missing;
    const result = queryDatabaseTool(self.db, table, constraint(field, key));
    const parts = [title0, '', `Executed: ${name}`, `${heading} ${s(key)}:`];
    parts.push(noRecords(result) ? empty : result);
    return parts.join('\n');
  });
}

export const ccExists = (self: Toolkit, id: TValue): boolean => !noRecords(queryDatabaseTool(self.db, 'credit_card_accounts', constraint('account_id', id)));

export const CHECKING_EARLY: Record<string, [bigint, number]> = {
  'Light Blue Account': [15n, 30],
  'Light Green Account': [15n, 30],
  'Green Fee-Free Account': [15n, 30],
  'Blue Account': [25n, 60],
  'Green Account': [25n, 60],
  'Evergreen Account': [50n, 90],
  'Bluest Account': [100n, 180],
};
export const SAVINGS_EARLY: Record<string, [bigint, number]> = {
  'Bronze Account': [20n, 60],
  'Silver Account': [35n, 90],
  'Silver Plus Account': [35n, 90],
  'Gold Account': [75n, 180],
  'Gold Plus Account': [75n, 180],
  'Gold Years Account': [75n, 180],
  'Platinum Account': [150n, 270],
  'Platinum Plus Account': [150n, 270],
  'Diamond Elite Account': [150n, 270],
};
export const lookupKey = (table: Record<string, [bigint, number]>, k: TValue): [bigint, number] | null => {
  if (Array.isArray(k) || k instanceof Map) throw typeError(`unhashable type: '${Array.isArray(k) ? 'list' : 'dict'}'`);
  return typeof k === 'string' && Object.hasOwn(table, k) ? table[k]! : null;
};

/** The hard-coded deposit images τ²'s tool keeps for three test transactions (none of them is in the shipped DB or tasks). */
export const IMAGE_TEST_IDS = new Set(['btxn_834027370c20', 'btxn_test_deposit_001', 'btxn_test_atm_dep_partial']);
