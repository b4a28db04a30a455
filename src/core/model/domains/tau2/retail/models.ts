import { defineModel, field, t } from '../../../../py/pydantic';

// τ²'s retail models (domains/retail/data_model.py), field order kept.
export const Variant = defineModel('Variant', [
  field('item_id', t.str),
  field('options', t.dict(t.str, t.str)),
  field('available', t.bool),
  field('price', t.float),
]);
const Product = defineModel('Product', [
  field('name', t.str),
  field('product_id', t.str),
  field(
    'variants',
    t.dict(
      t.str,
      t.model(() => Variant),
    ),
  ),
]);
const UserName = defineModel('UserName', [field('first_name', t.str), field('last_name', t.str)]);
export const UserAddress = defineModel('UserAddress', [
  field('address1', t.str),
  field('address2', t.str),
  field('city', t.str),
  field('country', t.str),
  field('state', t.str),
  field('zip', t.str),
]);
const CreditCard = defineModel('CreditCard', [field('source', t.literal('credit_card')), field('id', t.str), field('brand', t.str), field('last_four', t.str)]);
const Paypal = defineModel('Paypal', [field('source', t.literal('paypal')), field('id', t.str)]);
export const GiftCard = defineModel('GiftCard', [field('source', t.literal('gift_card')), field('id', t.str), field('balance', t.float)]);
const User = defineModel('User', [
  field('user_id', t.str),
  field(
    'name',
    t.model(() => UserName),
  ),
  field(
    'address',
    t.model(() => UserAddress),
  ),
  field('email', t.str),
  field(
    'payment_methods',
    t.dict(
      t.str,
      t.union(
        t.model(() => CreditCard),
        t.model(() => GiftCard),
        t.model(() => Paypal),
      ),
    ),
  ),
  field('orders', t.list(t.str)),
]);
const OrderFullfilment = defineModel('OrderFullfilment', [field('tracking_id', t.list(t.str)), field('item_ids', t.list(t.str))]);
const OrderItem = defineModel('OrderItem', [
  field('name', t.str),
  field('product_id', t.str),
  field('item_id', t.str),
  field('price', t.float),
  field('options', t.dict(t.str, t.str)),
]);
export const OrderPayment = defineModel('OrderPayment', [
  field('transaction_type', t.literal('payment', 'refund')),
  field('amount', t.float),
  field('payment_method_id', t.str),
]);
const ORDER_STATUS = t.literal('processed', 'pending', 'pending (item modified)', 'delivered', 'cancelled', 'exchange requested', 'return requested');
const optional = (name: string, type: ReturnType<typeof t.list>) => field(name, t.optional(type), { default: null });
const Order = defineModel('Order', [
  field('order_id', t.str),
  field('user_id', t.str),
  field(
    'address',
    t.model(() => UserAddress),
  ),
  field('items', t.list(t.model(() => OrderItem))),
  field('status', ORDER_STATUS),
  field('fulfillments', t.list(t.model(() => OrderFullfilment))),
  field('payment_history', t.list(t.model(() => OrderPayment))),
  optional('cancel_reason', t.literal('no longer needed', 'ordered by mistake')),
  optional('exchange_items', t.list(t.str)),
  optional('exchange_new_items', t.list(t.str)),
  optional('exchange_payment_method_id', t.str),
  optional('exchange_price_difference', t.float),
  optional('return_items', t.list(t.str)),
  optional('return_payment_method_id', t.str),
]);

export const RetailDb = defineModel(
  'RetailDB',
  [
    field(
      'products',
      t.dict(
        t.str,
        t.model(() => Product),
      ),
    ),
    field(
      'users',
      t.dict(
        t.str,
        t.model(() => User),
      ),
    ),
    field(
      'orders',
      t.dict(
        t.str,
        t.model(() => Order),
      ),
    ),
  ],
  { extra: 'forbid' },
);
