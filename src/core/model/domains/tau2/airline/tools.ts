/** τ²'s AirlineTools (domains/airline/tools.py), with Python's behaviour for any argument. */
import { intFromStr } from '../../../../py/int-parse';
import { mul, pySum } from '../../../../py/ops';
import { deepCopyValue, PydModel, validate, type TValue } from '../../../../py/pydantic';
import { compareCodePoints } from '../../../../py/hashable';
import type { PyValue } from '../../../../py/value';
import { calculate } from '../calculate';
import { own, ownTable, type MethodDef, type Toolkit, type ToolDef, type ToolType } from '../toolkit';
import { attr, has, item, items, less, minus, plus, same, setAttr, size, table, text, valueError } from '../py-attrs';
import { AirportCode, Certificate, DirectFlight, FlightDateStatusAvailable, FlightInfo, Passenger, Payment, Reservation, ReservationFlight } from './models';

const pv = (v: TValue): PyValue => v as PyValue;
const times = (a: TValue, b: TValue): TValue => mul(pv(a), pv(b)) as TValue;

function lookup(self: Toolkit, name: string, key: TValue, what: string, write: boolean): PydModel {
  const t = table(self.db, name);
  if (!has(t, key)) throw valueError(`${what} ${text(key)} not found`);
  return write ? own(self, name, key as string)! : (t.get(key as string) as PydModel);
}
const getUser = (self: Toolkit, id: TValue, write = false) => lookup(self, 'users', id, 'User', write);
const getReservation = (self: Toolkit, id: TValue, write = false) => lookup(self, 'reservations', id, 'Reservation', write);
const getFlight = (self: Toolkit, n: TValue, write = false) => lookup(self, 'flights', n, 'Flight', write);

function getFlightInstance(self: Toolkit, n: TValue, date: TValue, write = false): TValue {
  const dates = attr(getFlight(self, n, write), 'dates');
  if (!has(dates, date)) throw valueError(`Flight ${text(n)} not found on date ${text(date)}`);
  return item(dates, date);
}

// Python parity: `if all(isinstance(x, dict) for x in xs): xs = [Model(**x) for x in xs]`.
function modelsIfDicts(xs: TValue, model: typeof FlightInfo): TValue {
  const list = items(xs);
  return list.every((x) => x instanceof Map) ? list.map((x) => validate(model, x)) : xs;
}

const newReservationId = (self: Toolkit): string => {
  for (const id of ['HATHAT', 'HATHAU', 'HATHAV']) if (!table(self.db, 'reservations').has(id)) return id;
  throw valueError('Too many reservations');
};

function searchDirect(self: Toolkit, date: TValue, origin: TValue, destination: TValue, leaveAfter: TValue): PydModel[] {
  const out: PydModel[] = [];
  for (const flight of table(self.db, 'flights').values()) {
    const f = flight as PydModel;
    const dates = attr(f, 'dates');
    const ok =
      (origin === null || same(attr(f, 'origin'), origin)) &&
      (destination === null || same(attr(f, 'destination'), destination)) &&
      has(dates, date) &&
      same(attr(item(dates, date), 'status'), 'available') &&
      (leaveAfter === null || !lessStr(attr(f, 'scheduled_departure_time_est'), leaveAfter));
    if (!ok) continue;
    const d = item(dates, date);
    out.push(
      validate(
        DirectFlight,
        new Map<string, TValue>([
          ['flight_number', attr(f, 'flight_number')],
          ['origin', attr(f, 'origin')],
          ['destination', attr(f, 'destination')],
          ['status', 'available'],
          ['scheduled_departure_time_est', attr(f, 'scheduled_departure_time_est')],
          ['scheduled_arrival_time_est', attr(f, 'scheduled_arrival_time_est')],
          ['available_seats', attr(d, 'available_seats')],
          ['prices', attr(d, 'prices')],
        ]),
      ),
    );
  }
  return out;
}

// Python parity: str < str by code points (`flight.scheduled_departure_time_est >= leave_after` is `not <`).
const lessStr = (a: TValue, b: TValue): boolean => (typeof a === 'string' && typeof b === 'string' ? compareCodePoints(a, b) < 0 : less(a, b));

// Python parity: AirlineTools._payment_for_update.
function paymentForUpdate(user: PydModel, paymentId: TValue, total: TValue): PydModel | null {
  const methods = attr(user, 'payment_methods');
  if (!has(methods, paymentId)) throw valueError('Payment method not found');
  const pm = item(methods, paymentId);
  const source = attr(pm, 'source');
  if (source === 'certificate') throw valueError('Certificate cannot be used to update reservation');
  if (source === 'gift_card' && less(attr(pm, 'amount'), total)) throw valueError('Gift card balance is not enough');
  if (source === 'gift_card') setAttr(pm, 'amount', minus(attr(pm, 'amount'), total, '-='));
  return same(total, 0n)
    ? null
    : validate(
        Payment,
        new Map([
          ['payment_id', paymentId],
          ['amount', total],
        ]),
      );
}

const params = (...names: string[]) => names.map((name) => ({ name }));
const tool = (name: string, toolType: ToolType, names: string[], run: MethodDef['run']): ToolDef => ({
  name,
  toolType,
  mutates: toolType === 'write',
  params: params(...names),
  run,
});

const bookReservation: MethodDef['run'] = (self, a) => {
  const g = (k: string): TValue => a.get(k)!;
  const flights = modelsIfDicts(g('flights'), FlightInfo);
  const passengers = modelsIfDicts(g('passengers'), Passenger);
  const payments = modelsIfDicts(g('payment_methods'), Payment);
  const user = getUser(self, g('user_id'), true);
  const reservationId = newReservationId(self);
  const reservation = validate(
    Reservation,
    new Map<string, TValue>([
      ['reservation_id', reservationId],
      ['user_id', g('user_id')],
      ['origin', g('origin')],
      ['destination', g('destination')],
      ['flight_type', g('flight_type')],
      ['cabin', g('cabin')],
      ['flights', []],
      ['passengers', deepCopyValue(passengers)],
      ['payment_history', deepCopyValue(payments)],
      ['created_at', '2024-05-15T15:00:00'],
      ['total_baggages', g('total_baggages')],
      ['nonfree_baggages', g('nonfree_baggages')],
      ['insurance', g('insurance')],
    ]),
  );
  const cabin = g('cabin');
  const nPassengers = BigInt(size(passengers));
  let total: TValue = 0n;
  const taken: TValue[] = [];
  for (const info of items(flights)) {
    const number = attr(info, 'flight_number');
    const flight = getFlight(self, number, true);
    const data = getFlightInstance(self, number, attr(info, 'date'), true);
    if (!(data instanceof PydModel) || data.cls !== FlightDateStatusAvailable)
      throw valueError(`Flight ${text(number)} not available on date ${text(attr(info, 'date'))}`);
    if (less(item(attr(data, 'available_seats'), cabin), nPassengers)) throw valueError(`Not enough seats on flight ${text(number)}`);
    const price = item(attr(data, 'prices'), cabin);
    (attr(reservation, 'flights') as TValue[]).push(
      validate(
        ReservationFlight,
        new Map<string, TValue>([
          ['origin', attr(flight, 'origin')],
          ['destination', attr(flight, 'destination')],
          ['flight_number', number],
          ['date', attr(info, 'date')],
          ['price', price],
        ]),
      ),
    );
    taken.push(data);
    total = plus(total, times(price, nPassengers), '+=');
  }
  if (same(g('insurance'), 'yes')) total = plus(total, 30n * nPassengers, '+=');
  total = plus(total, times(50n, g('nonfree_baggages')), '+=');
  const methods = attr(user, 'payment_methods');
  for (const p of items(payments)) {
    const id = attr(p, 'payment_id');
    const amount = attr(p, 'amount');
    if (!has(methods, id)) throw valueError(`Payment method ${text(id)} not found`);
    const pm = item(methods, id);
    if ((attr(pm, 'source') === 'gift_card' || attr(pm, 'source') === 'certificate') && less(attr(pm, 'amount'), amount))
      throw valueError(`Not enough balance in payment method ${text(id)}`);
  }
  const paid = pySum(items(payments).map((p) => pv(attr(p, 'amount')))) as TValue;
  if (!same(paid, total)) throw valueError(`Payment amount does not add up, total price is ${text(total)}, but paid ${text(paid)}`);
  for (const p of items(payments)) {
    const id = attr(p, 'payment_id') as string;
    const pm = item(methods, id);
    if (attr(pm, 'source') === 'gift_card') setAttr(pm, 'amount', minus(attr(pm, 'amount'), attr(p, 'amount'), '-='));
    else if (attr(pm, 'source') === 'certificate') (methods as Map<string, TValue>).delete(id);
  }
  for (const data of taken) {
    const seats = attr(data, 'available_seats') as Map<string, TValue>;
    seats.set(cabin as string, minus(item(seats, cabin), nPassengers, '-='));
  }
  ownTable(self, 'reservations').set(reservationId, reservation);
  (attr(user, 'reservations') as TValue[]).push(reservationId);
  return reservation;
};

const AIRPORTS: [string, string][] = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

const updateFlights: MethodDef['run'] = (self, a) => {
  const cabin = a.get('cabin')!;
  const flights = modelsIfDicts(a.get('flights')!, FlightInfo);
  const reservation = getReservation(self, a.get('reservation_id')!, true);
  const user = getUser(self, attr(reservation, 'user_id'), true);
  const n = BigInt(size(attr(reservation, 'passengers')));
  let total: TValue = 0n;
  const chosen: TValue[] = [];
  for (const info of items(flights)) {
    const number = attr(info, 'flight_number');
    const date = attr(info, 'date');
    const match = (attr(reservation, 'flights') as TValue[]).find(
      (rf) => same(attr(rf, 'flight_number'), number) && same(attr(rf, 'date'), date) && same(cabin, attr(reservation, 'cabin')),
    );
    if (match !== undefined) {
      total = plus(total, times(attr(match, 'price'), n), '+=');
      chosen.push(match);
      continue;
    }
    const flight = getFlight(self, number);
    const data = getFlightInstance(self, number, date);
    if (!(data instanceof PydModel) || data.cls !== FlightDateStatusAvailable) throw valueError(`Flight ${text(number)} not available on date ${text(date)}`);
    if (less(item(attr(data, 'available_seats'), cabin), n)) throw valueError(`Not enough seats on flight ${text(number)}`);
    const rf = validate(
      ReservationFlight,
      new Map<string, TValue>([
        ['flight_number', number],
        ['date', date],
        ['price', item(attr(data, 'prices'), cabin)],
        ['origin', attr(flight, 'origin')],
        ['destination', attr(flight, 'destination')],
      ]),
    );
    total = plus(total, times(attr(rf, 'price'), n), '+=');
    chosen.push(rf);
  }
  const old = pySum((attr(reservation, 'flights') as TValue[]).map((f) => pv(attr(f, 'price')))) as TValue;
  total = minus(total, times(old, n), '-=');
  const payment = paymentForUpdate(user, a.get('payment_id')!, total);
  if (payment) (attr(reservation, 'payment_history') as TValue[]).push(payment);
  setAttr(reservation, 'flights', chosen);
  setAttr(reservation, 'cabin', cabin);
  return reservation;
};

const AGENT_TOOLS: ToolDef[] = [
  tool(
    'book_reservation',
    'write',
    ['user_id', 'origin', 'destination', 'flight_type', 'cabin', 'flights', 'passengers', 'payment_methods', 'total_baggages', 'nonfree_baggages', 'insurance'],
    bookReservation,
  ),
  tool('calculate', 'generic', ['expression'], (_self, a) => calculate(a.get('expression')!)),
  tool('cancel_reservation', 'write', ['reservation_id'], (self, a) => {
    const r = getReservation(self, a.get('reservation_id')!, true);
    const history = attr(r, 'payment_history') as TValue[];
    const refunds = history.map((p) =>
      validate(
        Payment,
        new Map<string, TValue>([
          ['payment_id', attr(p, 'payment_id')],
          ['amount', minus(0n, attr(p, 'amount'))],
        ]),
      ),
    );
    history.push(...refunds);
    setAttr(r, 'status', 'cancelled');
    return r;
  }),
  tool('get_reservation_details', 'read', ['reservation_id'], (self, a) => getReservation(self, a.get('reservation_id')!)),
  tool('get_user_details', 'read', ['user_id'], (self, a) => getUser(self, a.get('user_id')!)),
  tool('list_all_airports', 'read', [], () =>
    AIRPORTS.map(([iata, city]) =>
      validate(
        AirportCode,
        new Map([
          ['iata', iata],
          ['city', city],
        ]),
      ),
    ),
  ),
  tool('search_direct_flight', 'read', ['origin', 'destination', 'date'], (self, a) =>
    searchDirect(self, a.get('date')!, a.get('origin')!, a.get('destination')!, null),
  ),
  tool('search_onestop_flight', 'read', ['origin', 'destination', 'date'], (self, a) => {
    const date = a.get('date')!;
    const results: TValue[] = [];
    for (const r1 of searchDirect(self, date, a.get('origin')!, null, null)) {
      r1.set('date', date);
      const arrival = attr(r1, 'scheduled_arrival_time_est');
      // Python parity: f"2024-05-{int(date[-2:]) + 1}".
      const date2 = has(arrival, '+1') ? `2024-05-${intFromStr([...(date as string)].slice(-2).join('')) + 1n}` : date;
      for (const r2 of searchDirect(self, date2, attr(r1, 'destination'), a.get('destination')!, arrival)) {
        r2.set('date', date2);
        results.push([r1, r2]);
      }
    }
    return results;
  }),
  tool('send_certificate', 'write', ['user_id', 'amount'], (self, a) => {
    const user = getUser(self, a.get('user_id')!, true);
    const methods = attr(user, 'payment_methods') as Map<string, TValue>;
    for (const id of ['certificate_3221322', 'certificate_3221323', 'certificate_3221324']) {
      if (methods.has(id)) continue;
      methods.set(
        id,
        validate(
          Certificate,
          new Map<string, TValue>([
            ['id', id],
            ['amount', a.get('amount')!],
            ['source', 'certificate'],
          ]),
        ),
      );
      return `Certificate ${id} added to user ${text(a.get('user_id')!)} with amount ${text(a.get('amount')!)}.`;
    }
    throw valueError('Too many certificates');
  }),
  tool('transfer_to_human_agents', 'generic', ['summary'], () => 'Transfer successful'),
  tool('update_reservation_baggages', 'write', ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'], (self, a) => {
    const r = getReservation(self, a.get('reservation_id')!, true);
    const user = getUser(self, attr(r, 'user_id'), true);
    const extra = minus(a.get('nonfree_baggages')!, attr(r, 'nonfree_baggages'));
    // Python parity: max(0, x) keeps the first of equals.
    const total = times(50n, less(0n, extra) ? extra : 0n);
    const payment = paymentForUpdate(user, a.get('payment_id')!, total);
    if (payment) (attr(r, 'payment_history') as TValue[]).push(payment);
    setAttr(r, 'total_baggages', a.get('total_baggages')!);
    setAttr(r, 'nonfree_baggages', a.get('nonfree_baggages')!);
    return r;
  }),
  tool('update_reservation_flights', 'write', ['reservation_id', 'cabin', 'flights', 'payment_id'], updateFlights),
  tool('update_reservation_passengers', 'write', ['reservation_id', 'passengers'], (self, a) => {
    const passengers = modelsIfDicts(a.get('passengers')!, Passenger);
    const r = getReservation(self, a.get('reservation_id')!, true);
    if (size(passengers) !== size(attr(r, 'passengers'))) throw valueError('Number of passengers does not match');
    setAttr(r, 'passengers', deepCopyValue(passengers));
    return r;
  }),
  tool('get_flight_status', 'read', ['flight_number', 'date'], (self, a) => attr(getFlightInstance(self, a.get('flight_number')!, a.get('date')!), 'status')),
];

export { AGENT_TOOLS };
