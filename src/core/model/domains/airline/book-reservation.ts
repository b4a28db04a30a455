import { delItem } from '../../../py/del-item';
import { jsonDumps } from '../../../py/json-dumps';
import { listAppend } from '../../../py/list-methods';
import { add, contains, eq, getItem, iterate, len, lt, mul, pySum, setItem, sub } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import { deepCopy, type PyDict, type PyValue } from '../../../py/value';
import { defineTool } from '../tool';
import { priceSegment } from './segment-pricing';

const BALANCE_SOURCES: PyValue[] = ['gift_card', 'certificate'];

export const bookReservation = defineTool({
  name: 'book_reservation',
  className: 'BookReservation',
  module: 'tau_bench.envs.airline.tools.book_reservation',
  params: [
    'user_id',
    'origin',
    'destination',
    'flight_type',
    'cabin',
    'flights',
    'passengers',
    'payment_methods',
    'total_baggages',
    'nonfree_baggages',
    'insurance',
  ],
  writes: true,
  invoke: (data, args) => {
    const { user_id, cabin, passengers, payment_methods, nonfree_baggages, insurance } = args;
    const reservations = getItem(data, 'reservations');
    const users = getItem(data, 'users');
    if (!contains(users, user_id)) return 'Error: user not found';
    const user = getItem(users, user_id);

    // Python parity: BookReservation.invoke — only three ids; a fourth booking overwrites HATHAV.
    let reservationId = 'HATHAT';
    if (contains(reservations, reservationId)) {
      reservationId = 'HATHAU';
      if (contains(reservations, reservationId)) reservationId = 'HATHAV';
    }

    // Python parity: BookReservation.invoke — `flights` is deep-copied, `passengers` and
    // `payment_methods` are stored as the very objects the agent passed.
    const reservation: PyDict = new Map<string, PyValue>([
      ['reservation_id', reservationId],
      ['user_id', user_id],
      ['origin', args.origin],
      ['destination', args.destination],
      ['flight_type', args.flight_type],
      ['cabin', cabin],
      ['flights', deepCopy(args.flights)],
      ['passengers', passengers],
      ['payment_history', payment_methods],
      ['created_at', '2024-05-15T15:00:00'],
      ['total_baggages', args.total_baggages],
      ['nonfree_baggages', nonfree_baggages],
      ['insurance', insurance],
    ]);

    let totalPrice: PyValue = 0n;
    const passengerCount = (): bigint => BigInt(len(passengers));
    for (const flight of iterate(getItem(reservation, 'flights'))) {
      const error = priceSegment(data, flight, cabin, passengerCount);
      if (error !== null) return error;
      totalPrice = add(totalPrice, mul(getItem(flight, 'price'), passengerCount()), '+=');
    }
    if (eq(insurance, 'yes')) totalPrice = add(totalPrice, mul(30n, passengerCount()), '+=');
    totalPrice = add(totalPrice, mul(50n, nonfree_baggages), '+=');

    const userMethods = (): PyValue => getItem(user, 'payment_methods');
    for (const paymentMethod of iterate(payment_methods)) {
      const paymentId = getItem(paymentMethod, 'payment_id');
      const amount = getItem(paymentMethod, 'amount');
      if (!contains(userMethods(), paymentId)) return `Error: payment method ${pyStr(paymentId)} not found`;
      if (contains(BALANCE_SOURCES, getItem(getItem(userMethods(), paymentId), 'source'))) {
        if (lt(getItem(getItem(userMethods(), paymentId), 'amount'), amount)) return `Error: not enough balance in payment method ${pyStr(paymentId)}`;
      }
    }
    function* paidAmounts(): Generator<PyValue> {
      for (const payment of iterate(payment_methods)) yield getItem(payment, 'amount');
    }
    if (!eq(pySum(paidAmounts()), totalPrice))
      return `Error: payment amount does not add up, total price is ${pyStr(totalPrice)}, but paid ${pyStr(pySum(paidAmounts()))}`;

    for (const paymentMethod of iterate(payment_methods)) {
      const paymentId = getItem(paymentMethod, 'payment_id');
      const amount = getItem(paymentMethod, 'amount');
      const source = getItem(getItem(userMethods(), paymentId), 'source');
      if (eq(source, 'gift_card')) {
        const stored = getItem(userMethods(), paymentId);
        setItem(stored, 'amount', sub(getItem(stored, 'amount'), amount, '-='));
      } else if (eq(getItem(getItem(userMethods(), paymentId), 'source'), 'certificate')) {
        delItem(userMethods(), paymentId);
      }
    }

    setItem(reservations, reservationId, reservation);
    listAppend(getItem(user, 'reservations'), reservationId);
    return jsonDumps(reservation);
  },
});
