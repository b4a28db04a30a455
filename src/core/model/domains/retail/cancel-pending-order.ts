import { jsonDumps } from '../../../py/json-dumps';
import { listAppend, listExtend } from '../../../py/list-methods';
import { add, contains, eq, getItem, iterate, round2, setItem } from '../../../py/ops';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

const VALID_REASONS: PyValue[] = ['no longer needed', 'ordered by mistake'];

export const cancelPendingOrder = defineTool({
  name: 'cancel_pending_order',
  className: 'CancelPendingOrder',
  module: 'tau_bench.envs.retail.tools.cancel_pending_order',
  params: ['order_id', 'reason'],
  writes: true,
  invoke: (data, { order_id, reason }) => {
    const orders = getItem(data, 'orders');
    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'pending')) return 'Error: non-pending order cannot be cancelled';
    if (!contains(VALID_REASONS, reason)) return 'Error: invalid reason';

    // Python parity: CancelPendingOrder.invoke refunds every history entry, refunds included.
    const refunds: PyValue[] = [];
    for (const payment of iterate(getItem(order, 'payment_history'))) {
      const paymentId = getItem(payment, 'payment_method_id');
      const refund: PyValue = new Map<string, PyValue>([
        ['transaction_type', 'refund'],
        ['amount', getItem(payment, 'amount')],
        ['payment_method_id', paymentId],
      ]);
      listAppend(refunds, refund);
      if (contains(paymentId, 'gift_card')) {
        const user = getItem(getItem(data, 'users'), getItem(order, 'user_id'));
        const paymentMethod = getItem(getItem(user, 'payment_methods'), paymentId);
        setItem(paymentMethod, 'balance', add(getItem(paymentMethod, 'balance'), getItem(payment, 'amount'), '+='));
        setItem(paymentMethod, 'balance', round2(getItem(paymentMethod, 'balance')));
      }
    }

    setItem(order, 'status', 'cancelled');
    setItem(order, 'cancel_reason', reason);
    listExtend(getItem(order, 'payment_history'), refunds);
    return jsonDumps(order);
  },
});
