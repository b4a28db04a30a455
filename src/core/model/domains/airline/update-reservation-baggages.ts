import { jsonDumps } from '../../../py/json-dumps';
import { listAppend } from '../../../py/list-methods';
import { contains, eq, getItem, gt, lt, mul, setItem, sub } from '../../../py/ops';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

export const updateReservationBaggages = defineTool({
  name: 'update_reservation_baggages',
  className: 'UpdateReservationBaggages',
  module: 'tau_bench.envs.airline.tools.update_reservation_baggages',
  params: ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'],
  writes: true,
  invoke: (data, { reservation_id, total_baggages, nonfree_baggages, payment_id }) => {
    const users = getItem(data, 'users');
    const reservations = getItem(data, 'reservations');
    if (!contains(reservations, reservation_id)) return 'Error: reservation not found';
    const reservation = getItem(reservations, reservation_id);

    const extra = sub(nonfree_baggages, getItem(reservation, 'nonfree_baggages'));
    // Python parity: builtin max(0, extra) keeps the int 0 unless extra > 0 (so 0.0 and NaN give 0).
    const totalPrice = mul(50n, gt(extra, 0n) ? extra : 0n);
    const userMethods = (): PyValue => getItem(getItem(users, getItem(reservation, 'user_id')), 'payment_methods');
    if (!contains(userMethods(), payment_id)) return 'Error: payment method not found';
    const paymentMethod = getItem(userMethods(), payment_id);
    if (eq(getItem(paymentMethod, 'source'), 'certificate')) return 'Error: certificate cannot be used to update reservation';
    if (eq(getItem(paymentMethod, 'source'), 'gift_card') && lt(getItem(paymentMethod, 'amount'), totalPrice)) return 'Error: gift card balance is not enough';

    setItem(reservation, 'total_baggages', total_baggages);
    setItem(reservation, 'nonfree_baggages', nonfree_baggages);
    if (eq(getItem(paymentMethod, 'source'), 'gift_card')) setItem(paymentMethod, 'amount', sub(getItem(paymentMethod, 'amount'), totalPrice, '-='));

    if (!eq(totalPrice, 0n))
      listAppend(
        getItem(reservation, 'payment_history'),
        new Map<string, PyValue>([
          ['payment_id', payment_id],
          ['amount', totalPrice],
        ]),
      );
    return jsonDumps(reservation);
  },
});
