import { contains, eq, getItem, lt, setItem } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import type { PyValue } from '../../../py/value';

/**
 * The per-segment checks of booking and flight changes: the flight must exist, fly on the
 * segment's date with status `available` and have `len(passengers)` seats left in `cabin`.
 * On success the segment gets `price`, `origin` and `destination` from the flight DB.
 * Returns the error observation, or null when the segment was priced.
 */
// Python parity: the segment loop shared by BookReservation.invoke and UpdateReservationFlights.invoke.
export function priceSegment(data: PyValue, segment: PyValue, cabin: PyValue, passengerCount: () => bigint): string | null {
  const flightNumber = getItem(segment, 'flight_number');
  if (!contains(getItem(data, 'flights'), flightNumber)) return `Error: flight ${pyStr(flightNumber)} not found`;
  const flightData = getItem(getItem(data, 'flights'), flightNumber);
  if (!contains(getItem(flightData, 'dates'), getItem(segment, 'date')))
    return `Error: flight ${pyStr(flightNumber)} not found on date ${pyStr(getItem(segment, 'date'))}`;
  const dayData = getItem(getItem(flightData, 'dates'), getItem(segment, 'date'));
  if (!eq(getItem(dayData, 'status'), 'available')) return `Error: flight ${pyStr(flightNumber)} not available on date ${pyStr(getItem(segment, 'date'))}`;
  if (lt(getItem(getItem(dayData, 'available_seats'), cabin), passengerCount())) return `Error: not enough seats on flight ${pyStr(flightNumber)}`;
  setItem(segment, 'price', getItem(getItem(dayData, 'prices'), cabin));
  setItem(segment, 'origin', getItem(flightData, 'origin'));
  setItem(segment, 'destination', getItem(flightData, 'destination'));
  return null;
}
