import { defineModel, EnumClass, field, PyDate, t } from '../../../../py/pydantic';

// τ²'s telecom models (domains/telecom/data_model.py), field order and defaults kept; every model forbids extras.
const forbid = { extra: 'forbid' as const };
const optDate = (name: string) => field(name, t.optional(t.date), { default: null });
const optDateTime = (name: string) => field(name, t.optional(t.datetime), { default: null });

export const DeviceType = new EnumClass('DeviceType', [
  ['PHONE', 'phone'],
  ['ROUTER', 'router'],
  ['TABLET', 'tablet'],
  ['WATCH', 'watch'],
  ['OTHER', 'other'],
]);
export const LineStatus = new EnumClass('LineStatus', [
  ['ACTIVE', 'Active'],
  ['SUSPENDED', 'Suspended'],
  ['PENDING_ACTIVATION', 'Pending Activation'],
  ['CLOSED', 'Closed'],
]);
export const BillStatus = new EnumClass('BillStatus', [
  ['DRAFT', 'Draft'],
  ['ISSUED', 'Issued'],
  ['AWAITING_PAYMENT', 'Awaiting Payment'],
  ['PAID', 'Paid'],
  ['OVERDUE', 'Overdue'],
  ['DISPUTED', 'Disputed'],
]);
const AccountStatus = new EnumClass('AccountStatus', [
  ['ACTIVE', 'Active'],
  ['SUSPENDED', 'Suspended'],
  ['PENDING_VERIFICATION', 'Pending Verification'],
  ['CLOSED', 'Closed'],
]);
const PaymentMethodType = new EnumClass('PaymentMethodType', [
  ['CREDIT_CARD', 'Credit Card'],
  ['DEBIT_CARD', 'Debit Card'],
  ['PAYPAL', 'PayPal'],
]);

const Address = defineModel('Address', [field('street', t.str), field('city', t.str), field('state', t.str), field('zip_code', t.str)], forbid);
const Plan = defineModel(
  'Plan',
  [
    field('plan_id', t.str),
    field('name', t.str),
    field('data_limit_gb', t.float),
    field('price_per_month', t.float),
    field('data_refueling_price_per_gb', t.float),
  ],
  forbid,
);
const Device = defineModel(
  'Device',
  [
    field('device_id', t.str),
    field('device_type', t.enum(DeviceType)),
    field('model', t.str),
    field('imei', t.optional(t.str), { default: null }),
    field('is_esim_capable', t.bool),
    field('activated', t.bool, { default: false }),
    optDateTime('activation_date'),
    optDateTime('last_esim_transfer_date'),
  ],
  forbid,
);
const Line = defineModel(
  'Line',
  [
    field('line_id', t.str),
    field('phone_number', t.str),
    field('status', t.enum(LineStatus), { default: LineStatus.get('PENDING_ACTIVATION') }),
    field('plan_id', t.str),
    field('device_id', t.optional(t.str), { default: null }),
    field('data_used_gb', t.float, { default: 0.0 }),
    field('data_refueling_gb', t.float, { default: 0.0 }),
    field('roaming_enabled', t.bool, { default: false }),
    optDate('contract_end_date'),
    optDate('last_plan_change_date'),
    optDate('last_sim_replacement_date'),
    optDate('suspension_start_date'),
  ],
  forbid,
);
export const LineItem = defineModel(
  'LineItem',
  [field('description', t.str), field('amount', t.float), field('date', t.date), field('item_type', t.str)],
  forbid,
);
export const Bill = defineModel(
  'Bill',
  [
    field('bill_id', t.str),
    field('customer_id', t.str),
    field('period_start', t.date),
    field('period_end', t.date),
    field('issue_date', t.date),
    field('total_due', t.float),
    field('due_date', t.date),
    field('line_items', t.list(t.model(() => LineItem)), { factory: () => [] }),
    field('status', t.enum(BillStatus), { default: BillStatus.get('DRAFT') }),
  ],
  forbid,
);
const PaymentMethod = defineModel(
  'PaymentMethod',
  [field('method_type', t.enum(PaymentMethodType)), field('account_number_last_4', t.str), field('expiration_date', t.str)],
  forbid,
);
const Customer = defineModel(
  'Customer',
  [
    field('customer_id', t.str),
    field('full_name', t.str),
    field('date_of_birth', t.str),
    field('email', t.str),
    field('phone_number', t.str),
    field(
      'address',
      t.model(() => Address),
    ),
    field('account_status', t.enum(AccountStatus), { default: AccountStatus.get('PENDING_VERIFICATION') }),
    field('payment_methods', t.list(t.model(() => PaymentMethod)), { factory: () => [] }),
    field('line_ids', t.list(t.str), { factory: () => [] }),
    field('bill_ids', t.list(t.str), { factory: () => [] }),
    // Python parity: the default is a date (DEFAULT_START_DATE), kept as one: pydantic does not validate defaults.
    field('created_at', t.datetime, { default: new PyDate(2025, 1, 1) }),
    optDate('last_extension_date'),
    field('goodwill_credit_used_this_year', t.float, { default: 0.0 }),
  ],
  forbid,
);

export const TelecomDb = defineModel(
  'TelecomDB',
  [
    field('plans', t.list(t.model(() => Plan)), { factory: () => [] }),
    field('customers', t.list(t.model(() => Customer)), { factory: () => [] }),
    field('lines', t.list(t.model(() => Line)), { factory: () => [] }),
    field('bills', t.list(t.model(() => Bill)), { factory: () => [] }),
    field('devices', t.list(t.model(() => Device)), { factory: () => [] }),
  ],
  forbid,
);
