import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem } from '../../../py/ops';
import { defineTool } from '../tool';

export const getOrderDetails = defineTool({
  name: 'get_order_details',
  className: 'GetOrderDetails',
  module: 'tau_bench.envs.retail.tools.get_order_details',
  params: ['order_id'],
  writes: false,
  invoke: (data, { order_id }) => {
    const orders = getItem(data, 'orders');
    if (contains(orders, order_id)) return jsonDumps(getItem(orders, order_id));
    return 'Error: order not found';
  },
});
