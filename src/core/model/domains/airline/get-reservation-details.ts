import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem } from '../../../py/ops';
import { defineTool } from '../tool';

export const getReservationDetails = defineTool({
  name: 'get_reservation_details',
  className: 'GetReservationDetails',
  module: 'tau_bench.envs.airline.tools.get_reservation_details',
  params: ['reservation_id'],
  writes: false,
  invoke: (data, { reservation_id }) => {
    const reservations = getItem(data, 'reservations');
    if (contains(reservations, reservation_id)) return jsonDumps(getItem(reservations, reservation_id));
    // Python parity: GetReservationDetails.invoke reports a missing reservation as a missing user.
    return 'Error: user not found';
  },
});
