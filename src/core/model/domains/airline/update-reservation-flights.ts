import { jsonDumps } from '../../../py/json-dumps';
import { listAppend } from '../../../py/list-methods';
import { add, contains, eq, getItem, iterate, len, lt, mul, pySum, setItem, sub } from '../../../py/ops';
import { deepCopy, type PyValue } from '../../../py/value';
import { defineTool } from '../tool';
import { priceSegment } from './segment-pricing';

/**
 * The first segment of the reservation with the same flight number and date as `flight`,
 * provided the requested cabin equals the reservation's stored cabin.
 */
// Python parity: the walrus list comprehension of UpdateReservationFlights.invoke (same
// evaluation order and short-circuits; the stored cabin is the one from booking time).
function keptSegment(reservation: PyValue, flight: PyValue, cabin: PyValue): PyValue | undefined {
  for (const f of iterate(getItem(reservation, 'flights'))) {
    if (
      eq(getItem(f, 'flight_number'), getItem(flight, 'flight_number')) &&
      eq(getItem(f, 'date'), getItem(flight, 'date')) &&
      eq(cabin, getItem(reservation, 'cabin'))
    )
      return f;
  }
  return undefined;
}

export const updateReservationFlights = defineTool({
  name: 'update_reservation_flights',
  className: 'UpdateReservationFlights',
  module: 'tau_bench.envs.airline.tools.update_reservation_flights',
  params: ['reservation_id', 'cabin', 'flights', 'payment_id'],
  writes: true,
  invoke: (data, { reservation_id, cabin, flights, payment_id }) => {
    const users = getItem(data, 'users');
    const reservations = getItem(data, 'reservations');
    if (!contains(reservations, reservation_id)) return 'Error: reservation not found';
    const reservation = getItem(reservations, reservation_id);
    const passengerCount = (): bigint => BigInt(len(getItem(reservation, 'passengers')));

    let totalPrice: PyValue = 0n;
    const newFlights = deepCopy(flights);
    for (const flight of iterate(newFlights)) {
      const kept = keptSegment(reservation, flight, cabin);
      if (kept !== undefined) {
        totalPrice = add(totalPrice, mul(getItem(kept, 'price'), passengerCount()), '+=');
        setItem(flight, 'price', getItem(kept, 'price'));
        setItem(flight, 'origin', getItem(kept, 'origin'));
        setItem(flight, 'destination', getItem(kept, 'destination'));
        continue;
      }
      const error = priceSegment(data, flight, cabin, passengerCount);
      if (error !== null) return error;
      totalPrice = add(totalPrice, mul(getItem(flight, 'price'), passengerCount()), '+=');
    }

    function* oldPrices(): Generator<PyValue> {
      for (const f of iterate(getItem(reservation, 'flights'))) yield getItem(f, 'price');
    }
    totalPrice = sub(totalPrice, mul(pySum(oldPrices()), passengerCount()), '-=');

    const userMethods = (): PyValue => getItem(getItem(users, getItem(reservation, 'user_id')), 'payment_methods');
    if (!contains(userMethods(), payment_id)) return 'Error: payment method not found';
    const paymentMethod = getItem(userMethods(), payment_id);
    if (eq(getItem(paymentMethod, 'source'), 'certificate')) return 'Error: certificate cannot be used to update reservation';
    if (eq(getItem(paymentMethod, 'source'), 'gift_card') && lt(getItem(paymentMethod, 'amount'), totalPrice)) return 'Error: gift card balance is not enough';

    // Python parity: UpdateReservationFlights.invoke — a negative total is credited to a gift card,
    // and reservation["cabin"] is left as it was.
    if (eq(getItem(paymentMethod, 'source'), 'gift_card')) setItem(paymentMethod, 'amount', sub(getItem(paymentMethod, 'amount'), totalPrice, '-='));
    setItem(reservation, 'flights', newFlights);
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
