import { jsonDumps } from '../../../py/json-dumps';
import { contains, eq, getItem, setItem } from '../../../py/ops';
import { defineTool } from '../tool';
import { newAddress } from './address';

export const modifyPendingOrderAddress = defineTool({
  name: 'modify_pending_order_address',
  className: 'ModifyPendingOrderAddress',
  module: 'tau_bench.envs.retail.tools.modify_pending_order_address',
  params: ['order_id', 'address1', 'address2', 'city', 'state', 'country', 'zip'],
  writes: true,
  invoke: (data, { order_id, address1, address2, city, state, country, zip }) => {
    const orders = getItem(data, 'orders');
    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'pending')) return 'Error: non-pending order cannot be modified';

    setItem(order, 'address', newAddress({ address1, address2, city, state, country, zip }));
    return jsonDumps(order);
  },
});
