import { create, defineModel, field, t } from '../../../../py/pydantic';

// τ³'s banking_knowledge transactional DB (domains/banking_knowledge/data_model.py), field order kept.
export const DatabaseTable = defineModel('DatabaseTable', [
  field('data', t.dict(t.str, t.dict(t.str, t.any)), { factory: () => new Map() }),
  field('notes', t.str, { default: '' }),
]);

const TABLES = [
  'users',
  'accounts',
  'debit_cards',
  'referrals',
  'credit_card_applications',
  'user_discoverable_tools',
  'user_discoverable_tool_calls',
  'verification_history',
  'credit_card_transaction_history',
  'cash_back_disputes',
  'bank_account_transaction_history',
  'credit_card_accounts',
  'agent_discoverable_tools',
  'task_config',
  'human_transfer_requests',
  'transaction_disputes',
  'credit_card_orders',
  'debit_card_orders',
  'credit_card_closure_reasons',
  'credit_card_account_flags',
  'credit_limit_increase_requests',
  'payment_history',
  'debit_card_disputes',
];

/** `TransactionalDB(DB)`: every table a `DatabaseTable` made by its default factory when the file lacks it; extra keys forbidden. */
export const TransactionalDb = defineModel(
  'TransactionalDB',
  TABLES.map((name) =>
    field(
      name,
      t.model(() => DatabaseTable),
      { factory: () => create(DatabaseTable, {}) },
    ),
  ),
  { extra: 'forbid' },
);
