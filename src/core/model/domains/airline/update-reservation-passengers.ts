import { jsonDumps } from '../../../py/json-dumps';
import { contains, getItem, len, setItem } from '../../../py/ops';
import { defineTool } from '../tool';

export const updateReservationPassengers = defineTool({
  name: 'update_reservation_passengers',
  className: 'UpdateReservationPassengers',
  module: 'tau_bench.envs.airline.tools.update_reservation_passengers',
  params: ['reservation_id', 'passengers'],
  writes: true,
  invoke: (data, { reservation_id, passengers }) => {
    const reservations = getItem(data, 'reservations');
    if (!contains(reservations, reservation_id)) return 'Error: reservation not found';
    const reservation = getItem(reservations, reservation_id);
    if (len(passengers) !== len(getItem(reservation, 'passengers'))) return 'Error: number of passengers does not match';
    // Python parity: UpdateReservationPassengers.invoke stores the agent's object as given (any type with a len()).
    setItem(reservation, 'passengers', passengers);
    return jsonDumps(reservation);
  },
});
