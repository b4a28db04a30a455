import { jsonDumps } from '../../../py/json-dumps';
import { listExtend } from '../../../py/list-methods';
import { add, contains, eq, getItem, len, lt, round2, setItem, sub } from '../../../py/ops';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

export const modifyPendingOrderPayment = defineTool({
  name: 'modify_pending_order_payment',
  className: 'ModifyPendingOrderPayment',
  module: 'tau_bench.envs.retail.tools.modify_pending_order_payment',
  params: ['order_id', 'payment_method_id'],
  writes: true,
  invoke: (data, { order_id, payment_method_id }) => {
    const orders = getItem(data, 'orders');
    if (!contains(orders, order_id)) return 'Error: order not found';
    const order = getItem(orders, order_id);
    if (!eq(getItem(order, 'status'), 'pending')) return 'Error: non-pending order cannot be modified';

    const paymentMethodsOf = (): PyValue => getItem(getItem(getItem(data, 'users'), getItem(order, 'user_id')), 'payment_methods');
    if (!contains(paymentMethodsOf(), payment_method_id)) return 'Error: payment method not found';

    const firstPayment = (): PyValue => getItem(getItem(order, 'payment_history'), 0n);
    if (len(getItem(order, 'payment_history')) > 1 || !eq(getItem(firstPayment(), 'transaction_type'), 'payment'))
      return 'Error: there should be exactly one payment for a pending order';

    if (eq(getItem(firstPayment(), 'payment_method_id'), payment_method_id)) return 'Error: the new payment method should be different from the current one';

    const amount = getItem(firstPayment(), 'amount');
    const paymentMethod = getItem(paymentMethodsOf(), payment_method_id);
    if (eq(getItem(paymentMethod, 'source'), 'gift_card') && lt(getItem(paymentMethod, 'balance'), amount))
      return 'Error: insufficient gift card balance to pay for the order';

    const entries: PyValue = [
      new Map<string, PyValue>([
        ['transaction_type', 'payment'],
        ['amount', amount],
        ['payment_method_id', payment_method_id],
      ]),
      new Map<string, PyValue>([
        ['transaction_type', 'refund'],
        ['amount', amount],
        ['payment_method_id', getItem(firstPayment(), 'payment_method_id')],
      ]),
    ];
    listExtend(getItem(order, 'payment_history'), entries);

    if (eq(getItem(paymentMethod, 'source'), 'gift_card')) {
      setItem(paymentMethod, 'balance', sub(getItem(paymentMethod, 'balance'), amount, '-='));
      setItem(paymentMethod, 'balance', round2(getItem(paymentMethod, 'balance')));
    }

    if (contains(getItem(firstPayment(), 'payment_method_id'), 'gift_card')) {
      const oldPaymentMethod = getItem(paymentMethodsOf(), getItem(firstPayment(), 'payment_method_id'));
      setItem(oldPaymentMethod, 'balance', add(getItem(oldPaymentMethod, 'balance'), amount, '+='));
      setItem(oldPaymentMethod, 'balance', round2(getItem(oldPaymentMethod, 'balance')));
    }
    return jsonDumps(order);
  },
});
