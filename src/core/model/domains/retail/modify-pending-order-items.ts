import { jsonDumps } from '../../../py/json-dumps';
import { listAppend } from '../../../py/list-methods';
import { contains, eq, getItem, gt, len, lt, pyAbs, round2, setItem, sub } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import type { PyValue } from '../../../py/value';
import { pyZip } from '../../../py/zip';
import { defineTool } from '../tool';
import { firstExcessItem, firstItemWithId, priceDifference } from './order-items';

export const modifyPendingOrderItems = defineTool({
  name: 'modify_pending_order_items',
  className: 'ModifyPendingOrderItems',
  module: 'tau_bench.envs.retail.tools.modify_pending_order_items',
  params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  writes: true,
  invoke: (data, { order_id, item_ids, new_item_ids, payment_method_id }) => {
    const products = getItem(data, 'products');
    const orders = getItem(data, 'orders');
    const users = getItem(data, 'users');

    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'pending')) return 'Error: non-pending order cannot be modified';

    const excess = firstExcessItem(order, item_ids);
    if (excess) return `Error: ${pyStr(excess.itemId)} not found`;

    if (len(item_ids) !== len(new_item_ids)) return 'Error: the number of items to be exchanged should match';

    // Python parity: ModifyPendingOrderItems.invoke never rounds the price difference.
    const summed = priceDifference(products, order, item_ids, new_item_ids);
    if (typeof summed === 'string') return summed;
    const diffPrice: PyValue = summed.diff;

    if (!contains(getItem(getItem(users, getItem(order, 'user_id')), 'payment_methods'), payment_method_id)) return 'Error: payment method not found';
    const paymentMethod = getItem(getItem(getItem(users, getItem(order, 'user_id')), 'payment_methods'), payment_method_id);
    if (eq(getItem(paymentMethod, 'source'), 'gift_card') && lt(getItem(paymentMethod, 'balance'), diffPrice))
      return 'Error: insufficient gift card balance to pay for the new item';

    listAppend(
      getItem(order, 'payment_history'),
      new Map<string, PyValue>([
        ['transaction_type', gt(diffPrice, 0n) ? 'payment' : 'refund'],
        ['amount', pyAbs(diffPrice)],
        ['payment_method_id', payment_method_id],
      ]),
    );
    if (eq(getItem(paymentMethod, 'source'), 'gift_card')) {
      setItem(paymentMethod, 'balance', sub(getItem(paymentMethod, 'balance'), diffPrice, '-='));
      setItem(paymentMethod, 'balance', round2(getItem(paymentMethod, 'balance')));
    }

    // Python parity: ModifyPendingOrderItems.invoke looks each old id up again among the
    // already-modified items, so chained ids ([X, Y] -> [Y, Z]) hit the item changed first.
    for (const [itemId, newItemId] of pyZip(item_ids, new_item_ids)) {
      const item = firstItemWithId(order, itemId);
      setItem(item, 'item_id', newItemId);
      const price = getItem(getItem(getItem(getItem(products, getItem(item, 'product_id')), 'variants'), newItemId), 'price');
      setItem(item, 'price', price);
      // Python parity: ModifyPendingOrderItems.invoke shares the variant's own `options` dict (no copy).
      const options = getItem(getItem(getItem(getItem(products, getItem(item, 'product_id')), 'variants'), newItemId), 'options');
      setItem(item, 'options', options);
    }
    setItem(order, 'status', 'pending (item modified)');
    return jsonDumps(order);
  },
});
