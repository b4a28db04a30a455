/** τ²'s RetailTools (domains/retail/tools.py), with Python's behaviour for any argument. */
import { PyException } from '../../../../py/errors';
import { count, lower, pyAbs, pySorted, round2 } from '../../../../py/ops';
import { PydModel, pyJsonDumps, validate, type TDict, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import { calculate } from '../calculate';
import { attr, has, item, items, less, minus, plus, same, setAttr, size, table, text, valueError } from '../py-attrs';
import { own, type MethodDef, type Toolkit, type ToolDef, type ToolType } from '../toolkit';
import { GiftCard, OrderPayment, UserAddress } from './models';

const pv = (v: TValue): PyValue => v as PyValue;

function lookup(self: Toolkit, name: string, key: TValue, message: string, write: boolean): PydModel {
  const t = table(self.db, name);
  if (!has(t, key)) throw valueError(message);
  return write ? own(self, name, key as string)! : (t.get(key as string) as PydModel);
}
const getOrder = (self: Toolkit, id: TValue, write = false) => lookup(self, 'orders', id, 'Order not found', write);
const getUser = (self: Toolkit, id: TValue, write = false) => lookup(self, 'users', id, 'User not found', write);
const getProduct = (self: Toolkit, id: TValue) => lookup(self, 'products', id, 'Product not found', false);

function getVariant(self: Toolkit, productId: TValue, variantId: TValue): PydModel {
  const variants = attr(getProduct(self, productId), 'variants');
  if (!has(variants, variantId)) throw valueError('Variant not found');
  return item(variants, variantId) as PydModel;
}

function getPaymentMethod(self: Toolkit, userId: TValue, pmId: TValue, write = false): TValue {
  const methods = attr(getUser(self, userId, write), 'payment_methods');
  if (!has(methods, pmId)) throw valueError('Payment method not found');
  return item(methods, pmId);
}

const isGiftCard = (v: TValue): boolean => v instanceof PydModel && v.cls === GiftCard;
const pyRound2 = (v: TValue): TValue => round2(pv(v)) as TValue;
const sorted = (v: TValue): TValue => pySorted(pv(v)) as TValue;

/** `item_ids.count(x) > all_item_ids.count(x)` for any x of item_ids: the first such x, or undefined. */
function overCounted(ids: TValue, all: TValue[]): TValue | undefined {
  for (const id of items(ids)) if (count(pv(ids), pv(id)) > count(pv(all), pv(id))) return id;
  return undefined;
}

const findItem = (order: PydModel, id: TValue): TValue | undefined => (attr(order, 'items') as TValue[]).find((it) => same(attr(it, 'item_id'), id));

const pairs = (a: TValue, b: TValue): [TValue, TValue][] => {
  const xs = items(a);
  const ys = items(b);
  return xs.slice(0, Math.min(xs.length, ys.length)).map((x, i) => [x, ys[i]!]);
};

function address(a: ReadonlyMap<string, TValue>): PydModel {
  return validate(UserAddress, new Map(['address1', 'address2', 'city', 'state', 'country', 'zip'].map((k) => [k, a.get(k)!] as [string, TValue])));
}

const params = (...names: string[]) => names.map((name) => ({ name }));
const tool = (name: string, toolType: ToolType, names: string[], run: MethodDef['run']): ToolDef => ({
  name,
  toolType,
  mutates: toolType === 'write',
  params: params(...names),
  run,
});

const cancelPendingOrder: MethodDef['run'] = (self, a) => {
  const order = getOrder(self, a.get('order_id')!, true);
  if (!same(attr(order, 'status'), 'pending')) throw valueError('Non-pending order cannot be cancelled');
  const reason = a.get('reason')!;
  if (Array.isArray(reason) || reason instanceof Map) throw new PyException('TypeError', `unhashable type: '${Array.isArray(reason) ? 'list' : 'dict'}'`);
  if (!(same(reason, 'no longer needed') || same(reason, 'ordered by mistake'))) throw valueError('Invalid reason');
  const refunds: TValue[] = [];
  for (const payment of attr(order, 'payment_history') as TValue[]) {
    const pmId = attr(payment, 'payment_method_id');
    refunds.push(
      validate(
        OrderPayment,
        new Map<string, TValue>([
          ['transaction_type', 'refund'],
          ['amount', attr(payment, 'amount')],
          ['payment_method_id', pmId],
        ]),
      ),
    );
    const user = getUser(self, attr(order, 'user_id'), true);
    const pm = getPaymentMethod(self, attr(user, 'user_id'), pmId, true);
    if (isGiftCard(pm)) {
      setAttr(pm, 'balance', plus(attr(pm, 'balance'), attr(payment, 'amount'), '+='));
      setAttr(pm, 'balance', pyRound2(attr(pm, 'balance')));
    }
  }
  setAttr(order, 'status', 'cancelled');
  setAttr(order, 'cancel_reason', reason);
  (attr(order, 'payment_history') as TValue[]).push(...refunds);
  return order;
};

/** The shared first half of exchanging and modifying items: the checks and the price difference. */
function priceDifference(self: Toolkit, order: PydModel, a: ReadonlyMap<string, TValue>, exchange: boolean): { diff: TValue; variant: PydModel | null } {
  const ids = a.get('item_ids')!;
  const newIds = a.get('new_item_ids')!;
  const all = (attr(order, 'items') as TValue[]).map((it) => attr(it, 'item_id'));
  const over = overCounted(ids, all);
  if (over !== undefined) throw valueError(exchange ? `Number of ${text(over)} not found.` : `${text(over)} not found`);
  if (size(ids) !== size(newIds))
    throw valueError(exchange ? 'The number of items to be exchanged should match.' : 'The number of items to be exchanged should match');
  let diff: TValue = 0n;
  let variant: PydModel | null = null;
  for (const [id, newId] of pairs(ids, newIds)) {
    if (!exchange && same(id, newId)) throw valueError('The new item id should be different from the old item id');
    const it = findItem(order, id);
    if (it === undefined) throw valueError(`Item ${text(id)} not found`);
    variant = getVariant(self, attr(it, 'product_id'), newId);
    if (!attr(variant, 'available')) throw valueError(`New item ${text(newId)} not found or available`);
    diff = plus(diff, minus(attr(variant, 'price'), attr(it, 'price')), '+=');
  }
  return { diff, variant };
}

const exchangeDeliveredOrderItems: MethodDef['run'] = (self, a) => {
  const order = getOrder(self, a.get('order_id')!, true);
  if (!same(attr(order, 'status'), 'delivered')) throw valueError('Non-delivered order cannot be exchanged');
  const diff = pyRound2(priceDifference(self, order, a, true).diff);
  const pm = getPaymentMethod(self, attr(order, 'user_id'), a.get('payment_method_id')!);
  if (isGiftCard(pm) && less(attr(pm, 'balance'), diff)) throw valueError('Insufficient gift card balance to pay for the price difference');
  setAttr(order, 'status', 'exchange requested');
  setAttr(order, 'exchange_items', sorted(a.get('item_ids')!));
  setAttr(order, 'exchange_new_items', sorted(a.get('new_item_ids')!));
  setAttr(order, 'exchange_payment_method_id', a.get('payment_method_id')!);
  setAttr(order, 'exchange_price_difference', diff);
  return order;
};

const modifyPendingOrderItems: MethodDef['run'] = (self, a) => {
  const order = getOrder(self, a.get('order_id')!, true);
  if (!same(attr(order, 'status'), 'pending')) throw valueError('Non-pending order cannot be modified');
  const { diff, variant } = priceDifference(self, order, a, false);
  const pmId = a.get('payment_method_id')!;
  const pm = getPaymentMethod(self, attr(order, 'user_id'), pmId, true);
  if (isGiftCard(pm) && less(attr(pm, 'balance'), diff)) throw valueError('Insufficient gift card balance to pay for the new item');
  (attr(order, 'payment_history') as TValue[]).push(
    validate(
      OrderPayment,
      new Map<string, TValue>([
        ['transaction_type', less(0n, diff) ? 'payment' : 'refund'],
        ['amount', pyAbs(pv(diff)) as TValue],
        ['payment_method_id', pmId],
      ]),
    ),
  );
  if (isGiftCard(pm)) {
    setAttr(pm, 'balance', minus(attr(pm, 'balance'), diff, '-='));
    setAttr(pm, 'balance', pyRound2(attr(pm, 'balance')));
  }
  // Python parity: every modified item takes the price and options of the *last* new variant.
  for (const [id, newId] of pairs(a.get('item_ids')!, a.get('new_item_ids')!)) {
    const it = findItem(order, id);
    if (it === undefined) throw valueError(`Item ${text(id)} not found`);
    setAttr(it, 'item_id', newId);
    setAttr(it, 'price', attr(variant!, 'price'));
    setAttr(it, 'options', attr(variant!, 'options'));
  }
  setAttr(order, 'status', 'pending (item modified)');
  return order;
};

const modifyPendingOrderPayment: MethodDef['run'] = (self, a) => {
  const order = getOrder(self, a.get('order_id')!, true);
  if (!has(attr(order, 'status'), 'pending')) throw valueError('Non-pending order cannot be modified');
  const pmId = a.get('payment_method_id')!;
  const pm = getPaymentMethod(self, attr(order, 'user_id'), pmId, true);
  const history = attr(order, 'payment_history') as TValue[];
  if (history.length !== 1 || !same(attr(history[0]!, 'transaction_type'), 'payment'))
    throw valueError('There should be exactly one payment for a pending order');
  if (same(attr(history[0]!, 'payment_method_id'), pmId)) throw valueError('The new payment method should be different from the current one');
  const amount = attr(history[0]!, 'amount');
  if (isGiftCard(pm) && less(attr(pm, 'balance'), amount)) throw valueError('Insufficient gift card balance to pay for the order');
  const payment = (type: string, id: TValue): PydModel =>
    validate(
      OrderPayment,
      new Map<string, TValue>([
        ['transaction_type', type],
        ['amount', amount],
        ['payment_method_id', id],
      ]),
    );
  history.push(payment('payment', pmId), payment('refund', attr(history[0]!, 'payment_method_id')));
  if (isGiftCard(pm)) {
    setAttr(pm, 'balance', minus(attr(pm, 'balance'), amount, '-='));
    setAttr(pm, 'balance', pyRound2(attr(pm, 'balance')));
  }
  const old = getPaymentMethod(self, attr(order, 'user_id'), attr(history[0]!, 'payment_method_id'), true);
  if (isGiftCard(old)) {
    setAttr(old, 'balance', plus(attr(old, 'balance'), amount, '+='));
    setAttr(old, 'balance', pyRound2(attr(old, 'balance')));
  }
  return order;
};

const returnDeliveredOrderItems: MethodDef['run'] = (self, a) => {
  const order = getOrder(self, a.get('order_id')!, true);
  if (!same(attr(order, 'status'), 'delivered')) throw valueError('Non-delivered order cannot be returned');
  const user = getUser(self, attr(order, 'user_id'));
  const pmId = a.get('payment_method_id')!;
  const pm = getPaymentMethod(self, attr(user, 'user_id'), pmId);
  if (!isGiftCard(pm) && !same(pmId, attr(item(attr(order, 'payment_history'), 0n), 'payment_method_id')))
    throw valueError('Payment method should be the original payment method');
  const all = (attr(order, 'items') as TValue[]).map((it) => attr(it, 'item_id'));
  if (overCounted(a.get('item_ids')!, all) !== undefined) throw valueError('Some item not found');
  setAttr(order, 'status', 'return requested');
  setAttr(order, 'return_items', sorted(a.get('item_ids')!));
  setAttr(order, 'return_payment_method_id', pmId);
  return order;
};

const ADDRESS = ['address1', 'address2', 'city', 'state', 'country', 'zip'];

export const RETAIL_TOOLS: ToolDef[] = [
  tool('calculate', 'generic', ['expression'], (_self, a) => calculate(a.get('expression')!)),
  tool('cancel_pending_order', 'write', ['order_id', 'reason'], cancelPendingOrder),
  tool('exchange_delivered_order_items', 'write', ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'], exchangeDeliveredOrderItems),
  tool('find_user_id_by_name_zip', 'read', ['first_name', 'last_name', 'zip'], (self, a) => {
    for (const [id, u] of table(self.db, 'users')) {
      const name = attr(u, 'name');
      if (
        lower(pv(attr(name, 'first_name'))) === lower(pv(a.get('first_name')!)) &&
        lower(pv(attr(name, 'last_name'))) === lower(pv(a.get('last_name')!)) &&
        same(attr(attr(u, 'address'), 'zip'), a.get('zip')!)
      )
        return id;
    }
    throw valueError('User not found');
  }),
  tool('find_user_id_by_email', 'read', ['email'], (self, a) => {
    for (const [id, u] of table(self.db, 'users')) if (lower(pv(attr(u, 'email'))) === lower(pv(a.get('email')!))) return id;
    throw valueError('User not found');
  }),
  tool('get_order_details', 'read', ['order_id'], (self, a) => getOrder(self, a.get('order_id')!)),
  tool('get_product_details', 'read', ['product_id'], (self, a) => getProduct(self, a.get('product_id')!)),
  tool('get_item_details', 'read', ['item_id'], (self, a) => {
    for (const p of table(self.db, 'products').values()) {
      const variants = attr(p, 'variants');
      if (has(variants, a.get('item_id')!)) return item(variants, a.get('item_id')!);
    }
    throw valueError('Item not found');
  }),
  tool('get_user_details', 'read', ['user_id'], (self, a) => getUser(self, a.get('user_id')!)),
  tool('list_all_product_types', 'read', [], (self) => {
    const d: TDict = new Map();
    for (const p of table(self.db, 'products').values()) d.set(attr(p, 'name') as string, attr(p, 'product_id'));
    return pyJsonDumps(d, { sortKeys: true });
  }),
  tool('modify_pending_order_address', 'write', ['order_id', ...ADDRESS], (self, a) => {
    const order = getOrder(self, a.get('order_id')!, true);
    if (!has(attr(order, 'status'), 'pending')) throw valueError('Non-pending order cannot be modified');
    setAttr(order, 'address', address(a));
    return order;
  }),
  tool('modify_pending_order_items', 'write', ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'], modifyPendingOrderItems),
  tool('modify_pending_order_payment', 'write', ['order_id', 'payment_method_id'], modifyPendingOrderPayment),
  tool('modify_user_address', 'write', ['user_id', ...ADDRESS], (self, a) => {
    const user = getUser(self, a.get('user_id')!, true);
    setAttr(user, 'address', address(a));
    return user;
  }),
  tool('return_delivered_order_items', 'write', ['order_id', 'item_ids', 'payment_method_id'], returnDeliveredOrderItems),
  tool('transfer_to_human_agents', 'generic', ['summary'], () => 'Transfer successful'),
];
