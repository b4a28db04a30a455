import { jsonDumps } from '../../../py/json-dumps';
import { contains, eq, getItem, len, lt, pySorted, round2, setItem } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';
import { firstExcessItem, priceDifference } from './order-items';

export const exchangeDeliveredOrderItems = defineTool({
  name: 'exchange_delivered_order_items',
  className: 'ExchangeDeliveredOrderItems',
  module: 'tau_bench.envs.retail.tools.exchange_delivered_order_items',
  params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  writes: true,
  invoke: (data, { order_id, item_ids, new_item_ids, payment_method_id }) => {
    const products = getItem(data, 'products');
    const orders = getItem(data, 'orders');
    const users = getItem(data, 'users');

    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'delivered')) return 'Error: non-delivered order cannot be exchanged';

    const excess = firstExcessItem(order, item_ids);
    if (excess) return `Error: ${pyStr(excess.itemId)} not found`;

    if (len(item_ids) !== len(new_item_ids)) return 'Error: the number of items to be exchanged should match';

    const summed = priceDifference(products, order, item_ids, new_item_ids);
    if (typeof summed === 'string') return summed;
    let diffPrice: PyValue = summed.diff;
    diffPrice = round2(diffPrice);

    if (!contains(getItem(getItem(users, getItem(order, 'user_id')), 'payment_methods'), payment_method_id)) return 'Error: payment method not found';
    const paymentMethod = getItem(getItem(getItem(users, getItem(order, 'user_id')), 'payment_methods'), payment_method_id);
    if (eq(getItem(paymentMethod, 'source'), 'gift_card') && lt(getItem(paymentMethod, 'balance'), diffPrice))
      return 'Error: insufficient gift card balance to pay for the price difference';

    setItem(order, 'status', 'exchange requested');
    // Python parity: ExchangeDeliveredOrderItems.invoke sorts both lists independently.
    setItem(order, 'exchange_items', pySorted(item_ids));
    setItem(order, 'exchange_new_items', pySorted(new_item_ids));
    setItem(order, 'exchange_payment_method_id', payment_method_id);
    setItem(order, 'exchange_price_difference', diffPrice);
    return jsonDumps(order);
  },
});
