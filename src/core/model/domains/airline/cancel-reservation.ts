import { jsonDumps } from '../../../py/json-dumps';
import { listAppend, listExtend } from '../../../py/list-methods';
import { contains, getItem, iterate, neg, setItem } from '../../../py/ops';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';

export const cancelReservation = defineTool({
  name: 'cancel_reservation',
  className: 'CancelReservation',
  module: 'tau_bench.envs.airline.tools.cancel_reservation',
  params: ['reservation_id'],
  writes: true,
  invoke: (data, { reservation_id }) => {
    const reservations = getItem(data, 'reservations');
    if (!contains(reservations, reservation_id)) return 'Error: reservation not found';
    const reservation = getItem(reservations, reservation_id);

    // Python parity: CancelReservation.invoke negates every history entry (earlier refunds too)
    // and never checks whether the reservation is already cancelled.
    const refunds: PyValue[] = [];
    for (const payment of iterate(getItem(reservation, 'payment_history'))) {
      listAppend(
        refunds,
        new Map<string, PyValue>([
          ['payment_id', getItem(payment, 'payment_id')],
          ['amount', neg(getItem(payment, 'amount'))],
        ]),
      );
    }
    listExtend(getItem(reservation, 'payment_history'), refunds);
    setItem(reservation, 'status', 'cancelled');
    return jsonDumps(reservation);
  },
});
