import { jsonDumps } from '../../../py/json-dumps';
import { contains, eq, getItem, pySorted, setItem } from '../../../py/ops';
import { defineTool } from '../tool';
import { firstExcessItem } from './order-items';

export const returnDeliveredOrderItems = defineTool({
  name: 'return_delivered_order_items',
  className: 'ReturnDeliveredOrderItems',
  module: 'tau_bench.envs.retail.tools.return_delivered_order_items',
  params: ['order_id', 'item_ids', 'payment_method_id'],
  writes: true,
  invoke: (data, { order_id, item_ids, payment_method_id }) => {
    const orders = getItem(data, 'orders');
    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'delivered')) return 'Error: non-delivered order cannot be returned';

    if (!contains(getItem(getItem(getItem(data, 'users'), getItem(order, 'user_id')), 'payment_methods'), payment_method_id))
      return 'Error: payment method not found';
    if (!contains(payment_method_id, 'gift_card') && !eq(payment_method_id, getItem(getItem(getItem(order, 'payment_history'), 0n), 'payment_method_id')))
      return 'Error: payment method should be either the original payment method or a gift card';

    if (firstExcessItem(order, item_ids)) return 'Error: some item not found';

    setItem(order, 'status', 'return requested');
    setItem(order, 'return_items', pySorted(item_ids));
    setItem(order, 'return_payment_method_id', payment_method_id);
    return jsonDumps(order);
  },
});
