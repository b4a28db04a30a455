import { defineModel, field, t, type FieldType } from '../../../../py/pydantic';

// τ²'s airline models (domains/airline/data_model.py), field order kept.
export const CABIN = t.literal('business', 'economy', 'basic_economy');
const seatMap: FieldType = t.dict(CABIN, t.int);
const time = (name: string) => field(name, t.str);

export const AirportCode = defineModel('AirportCode', [field('iata', t.str), field('city', t.str)]);
const Name = defineModel('Name', [field('first_name', t.str), field('last_name', t.str)]);
const Address = defineModel('Address', [
  field('address1', t.str),
  field('address2', t.optional(t.str), { default: null }),
  field('city', t.str),
  field('country', t.str),
  field('state', t.str),
  field('zip', t.str),
]);
export const Payment = defineModel('Payment', [field('payment_id', t.str), field('amount', t.int)]);
const CreditCard = defineModel('CreditCard', [field('source', t.literal('credit_card')), field('id', t.str), field('brand', t.str), field('last_four', t.str)]);
const GiftCard = defineModel('GiftCard', [field('source', t.literal('gift_card')), field('id', t.str), field('amount', t.float)]);
export const Certificate = defineModel('Certificate', [field('source', t.literal('certificate')), field('id', t.str), field('amount', t.float)]);
export const Passenger = defineModel('Passenger', [field('first_name', t.str), field('last_name', t.str), field('dob', t.str)]);

export const FlightDateStatusAvailable = defineModel('FlightDateStatusAvailable', [
  field('status', t.literal('available')),
  field('available_seats', seatMap),
  field('prices', seatMap),
]);
const FlightDateStatusLanded = defineModel('FlightDateStatusLanded', [
  field('status', t.literal('landed')),
  time('actual_departure_time_est'),
  time('actual_arrival_time_est'),
]);
const FlightDateStatusCancelled = defineModel('FlightDateStatusCancelled', [field('status', t.literal('cancelled'))]);
const FlightDateStatusDelayed = defineModel('FlightDateStatusDelayed', [
  field('status', t.literal('delayed')),
  time('estimated_departure_time_est'),
  time('estimated_arrival_time_est'),
]);
const FlightDataStatusFlying = defineModel('FlightDataStatusFlying', [
  field('status', t.literal('flying')),
  time('actual_departure_time_est'),
  time('estimated_arrival_time_est'),
]);
const FlightDataStatusOnTime = defineModel('FlightDataStatusOnTime', [
  field('status', t.literal('on time')),
  time('estimated_departure_time_est'),
  time('estimated_arrival_time_est'),
]);
const FLIGHT_DATE_STATUS = t.union(
  ...[
    FlightDateStatusAvailable,
    FlightDateStatusLanded,
    FlightDateStatusCancelled,
    FlightDateStatusDelayed,
    FlightDataStatusFlying,
    FlightDataStatusOnTime,
  ].map((m) => t.model(() => m)),
);

const FLIGHT_BASE = [field('flight_number', t.str), field('origin', t.str), field('destination', t.str)];
const Flight = defineModel('Flight', [
  ...FLIGHT_BASE,
  time('scheduled_departure_time_est'),
  time('scheduled_arrival_time_est'),
  field('dates', t.dict(t.str, FLIGHT_DATE_STATUS)),
]);
export const DirectFlight = defineModel('DirectFlight', [
  ...FLIGHT_BASE,
  field('status', t.literal('available')),
  time('scheduled_departure_time_est'),
  time('scheduled_arrival_time_est'),
  field('date', t.optional(t.str), { default: null }),
  field('available_seats', seatMap),
  field('prices', seatMap),
]);
export const ReservationFlight = defineModel('ReservationFlight', [...FLIGHT_BASE, field('date', t.str), field('price', t.int)]);
export const FlightInfo = defineModel('FlightInfo', [field('flight_number', t.str), field('date', t.str)]);

const User = defineModel('User', [
  field('user_id', t.str),
  field(
    'name',
    t.model(() => Name),
  ),
  field(
    'address',
    t.model(() => Address),
  ),
  field('email', t.str),
  field('dob', t.str),
  field(
    'payment_methods',
    t.dict(
      t.str,
      t.union(
        t.model(() => CreditCard),
        t.model(() => GiftCard),
        t.model(() => Certificate),
      ),
    ),
  ),
  field('saved_passengers', t.list(t.model(() => Passenger))),
  field('membership', t.literal('gold', 'silver', 'regular')),
  field('reservations', t.list(t.str)),
]);

export const Reservation = defineModel('Reservation', [
  field('reservation_id', t.str),
  field('user_id', t.str),
  field('origin', t.str),
  field('destination', t.str),
  field('flight_type', t.literal('round_trip', 'one_way')),
  field('cabin', CABIN),
  field('flights', t.list(t.model(() => ReservationFlight))),
  field('passengers', t.list(t.model(() => Passenger))),
  field('payment_history', t.list(t.model(() => Payment))),
  field('created_at', t.str),
  field('total_baggages', t.int),
  field('nonfree_baggages', t.int),
  field('insurance', t.literal('yes', 'no')),
  field('status', t.optional(t.literal('cancelled')), { default: null }),
]);

export const FlightDb = defineModel(
  'FlightDB',
  [
    field(
      'flights',
      t.dict(
        t.str,
        t.model(() => Flight),
      ),
    ),
    field(
      'users',
      t.dict(
        t.str,
        t.model(() => User),
      ),
    ),
    field(
      'reservations',
      t.dict(
        t.str,
        t.model(() => Reservation),
      ),
    ),
  ],
  { extra: 'forbid' },
);
