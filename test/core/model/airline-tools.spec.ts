import { expect, it } from 'vitest';
import { freeze } from '../../support/immer';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { executeTool } from '../../../src/core/env/execute';
import { consistentHash } from '../../../src/core/py/hash';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict } from '../../../src/core/py/value';
import { describeShared, sharedDb } from '../../support/shared';

/**
 * Extra airline cases derived from EVALUATOR-SEMANTICS.md §3.3/§4.3/§4.4 and the tool code at
 * 14bf0ef. The expected observation fragments and final DB hashes were confirmed by running
 * τ-bench's own airline tools on CPython 3.11.7 (tool invoked directly, exceptions turned into
 * `Error: {e}` as Env.step does).
 */

type Action = readonly [tool: string, kwargs: string];
type Check = readonly [step: number, kind: 'exact' | 'contains' | 'excludes' | 'none', text: string];
interface Case {
  readonly name: string;
  /** A whole airline DB as JSON text; the shipped 14bf0ef data when absent. */
  readonly db?: string;
  readonly actions: readonly Action[];
  readonly checks: readonly Check[];
  /** `consistent_hash(to_hashable(data))` after the last action. */
  readonly hash: string;
}

/** book_reservation kwargs (JSON text, so ints and floats stay apart); each override is a value's JSON text. */
const BOOK_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['user_id', '"mia_li_3668"'],
  ['origin', '"JFK"'],
  ['destination', '"SEA"'],
  ['flight_type', '"one_way"'],
  ['cabin', '"economy"'],
  ['flights', '[{"flight_number": "HAT136", "date": "2024-05-20"}, {"flight_number": "HAT039", "date": "2024-05-20"}]'],
  ['passengers', '[{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}]'],
  ['payment_methods', '[{"payment_id": "certificate_7504069", "amount": 250}, {"payment_id": "credit_card_4421486", "amount": 5}]'],
  ['total_baggages', '3'],
  ['nonfree_baggages', '0'],
  ['insurance', '"no"'],
];

function book(overrides: Readonly<Record<string, string>>): Action {
  const fields = BOOK_FIELDS.map(([k, v]) => `"${k}": ${overrides[k] ?? v}`);
  return ['book_reservation', `{${fields.join(', ')}}`];
}

const CASES: readonly Case[] = [
  {
    name: 'book: a float nonfree_baggages makes the total a float',
    actions: [
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 250}]', nonfree_baggages: '1.5' }),
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 330}]', nonfree_baggages: '1.5' }),
    ],
    checks: [
      [0, 'exact', 'Error: payment amount does not add up, total price is 330.0, but paid 250'],
      [1, 'contains', '"total_baggages": 3, "nonfree_baggages": 1.5, "insurance": "no"'],
      [1, 'contains', '"payment_history": [{"payment_id": "credit_card_4421486", "amount": 330}]'],
    ],
    hash: 'b0774e19a4698cce36a32b8e6cca0c49656311c5e0c0fb3ad93466b5eafb0a78',
  },
  {
    name: 'book: float amounts are summed left to right (CPython 3.11 sum)',
    actions: [
      book({
        payment_methods:
          '[{"payment_id": "credit_card_4421486", "amount": 0.1}, {"payment_id": "credit_card_4421486", "amount": 0.2}, {"payment_id": "credit_card_4421486", "amount": 0.3}]',
      }),
    ],
    checks: [[0, 'exact', 'Error: payment amount does not add up, total price is 255, but paid 0.6000000000000001']],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'book: the same certificate twice is deleted, then raises KeyError without storing the reservation',
    actions: [
      book({ payment_methods: '[{"payment_id": "certificate_7504069", "amount": 250}, {"payment_id": "certificate_7504069", "amount": 5}]' }),
      ['get_user_details', '{"user_id": "mia_li_3668"}'],
      ['get_reservation_details', '{"reservation_id": "HATHAT"}'],
    ],
    checks: [
      [0, 'exact', "Error: 'certificate_7504069'"],
      [1, 'contains', '"certificate_4856383": {"source": "certificate", "amount": 100, "id": "certificate_4856383"}, "credit_card_1955700"'],
      [1, 'contains', '"reservations": ["NO6JO3", "AIXC49", "HKEG34"]'],
      [2, 'exact', 'Error: user not found'],
    ],
    hash: '56daa4f15db07e737981cabb755663fa11b7ed72f0adf1cf984dd77d9727434d',
  },
  {
    name: 'book: a fourth booking overwrites HATHAV and lists it twice',
    actions: [
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 255}]' }),
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 255}]' }),
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 255}]' }),
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 255}]' }),
      ['get_user_details', '{"user_id": "mia_li_3668"}'],
    ],
    checks: [
      [3, 'contains', '{"reservation_id": "HATHAV"'],
      [4, 'contains', '"reservations": ["NO6JO3", "AIXC49", "HKEG34", "HATHAT", "HATHAU", "HATHAV", "HATHAV"]'],
    ],
    hash: '6247f7024463b1af59247f8d6fc3a19cc509f2d0191af50fdf8c84e9c38c4510',
  },
  {
    name: 'book: insurance adds 30 per passenger',
    actions: [
      book({
        passengers: '[{"first_name": "A", "last_name": "B", "dob": "1990-01-01"}, {"first_name": "A", "last_name": "B", "dob": "1990-01-01"}]',
        payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 510}]',
        insurance: '"yes"',
      }),
      book({
        passengers: '[{"first_name": "A", "last_name": "B", "dob": "1990-01-01"}, {"first_name": "A", "last_name": "B", "dob": "1990-01-01"}]',
        payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 570}]',
        insurance: '"yes"',
      }),
    ],
    checks: [
      [0, 'exact', 'Error: payment amount does not add up, total price is 570, but paid 510'],
      [1, 'contains', '"insurance": "yes"}'],
    ],
    hash: '07b9d63d10185feba73dfe4aa37f1dacf23dd45e678d67a0cc4c7b4783df1441',
  },
  {
    name: 'book: passengers and other fields are stored as given',
    actions: [book({ flight_type: '7', passengers: '"ab"', payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 510}]' })],
    checks: [
      [0, 'contains', '"flight_type": 7, "cabin": "economy"'],
      [0, 'contains', '"passengers": "ab", "payment_history"'],
    ],
    hash: '77ad322028287b39bab5a44db88c593ed9a5d5058afadf52a0c6390538a7c0f8',
  },
  {
    name: 'book: no segments and no insurance never takes len(passengers)',
    actions: [book({ flights: '[]', passengers: '1', payment_methods: '[]' })],
    checks: [[0, 'contains', '"flights": [], "passengers": 1, "payment_history": []']],
    hash: 'a3f7efd4f43a40e3c5c92bf9ce458a344fa755fe842175203bf38500a7a8e647',
  },
  {
    name: 'book: odd argument types raise Python errors',
    actions: [
      book({ passengers: '1' }),
      book({ nonfree_baggages: '[1]' }),
      book({ nonfree_baggages: 'null' }),
      book({ flights: 'null' }),
      book({ flights: '{"HAT136": 1}' }),
      book({ user_id: '["mia_li_3668"]' }),
      book({ payment_methods: '[{"payment_id": "certificate_7504069", "amount": "250"}]' }),
      book({ payment_methods: '[{"payment_id": ["x"], "amount": 1}]' }),
      book({ payment_methods: '[{"payment_id": 7, "amount": 1}]' }),
    ],
    checks: [
      [0, 'exact', "Error: object of type 'int' has no len()"],
      [1, 'exact', "Error: unsupported operand type(s) for +=: 'int' and 'list'"],
      [2, 'exact', "Error: unsupported operand type(s) for *: 'int' and 'NoneType'"],
      [3, 'exact', "Error: 'NoneType' object is not iterable"],
      [4, 'exact', "Error: string indices must be integers, not 'str'"],
      [5, 'exact', "Error: unhashable type: 'list'"],
      [6, 'exact', "Error: '<' not supported between instances of 'int' and 'str'"],
      [7, 'exact', "Error: unhashable type: 'list'"],
      [8, 'exact', 'Error: payment method 7 not found'],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'book: a gift card paid with a float amount turns into a float (264 - 255.0)',
    actions: [
      book({ user_id: '"sophia_davis_8874"', payment_methods: '[{"payment_id": "gift_card_5896248", "amount": 255.0}]' }),
      ['get_user_details', '{"user_id": "sophia_davis_8874"}'],
    ],
    checks: [
      [0, 'contains', '"payment_history": [{"payment_id": "gift_card_5896248", "amount": 255.0}]'],
      [1, 'contains', '"gift_card_5896248": {"source": "gift_card", "amount": 9.0, "id": "gift_card_5896248"}'],
      [1, 'contains', '"reservations": ["ZVWQ08", "HFMJKS", "NVLFIW", "HATHAT"]'],
    ],
    hash: '93d602c7acac65758ebf01cf4d72c55c6f648aa0753ac069b30d2446e42422bc',
  },
  {
    name: 'cancel twice negates earlier refunds too and keeps floats (-0.0)',
    actions: [
      book({ payment_methods: '[{"payment_id": "credit_card_4421486", "amount": 255.0}, {"payment_id": "credit_card_4421486", "amount": 0.0}]' }),
      ['cancel_reservation', '{"reservation_id": "HATHAT"}'],
      ['cancel_reservation', '{"reservation_id": "HATHAT"}'],
    ],
    checks: [
      [
        1,
        'contains',
        '"payment_history": [{"payment_id": "credit_card_4421486", "amount": 255.0}, {"payment_id": "credit_card_4421486", "amount": 0.0}, {"payment_id": "credit_card_4421486", "amount": -255.0}, {"payment_id": "credit_card_4421486", "amount": -0.0}], "created_at"',
      ],
      [1, 'contains', '"insurance": "no", "status": "cancelled"}'],
      [
        2,
        'contains',
        '"amount": -0.0}, {"payment_id": "credit_card_4421486", "amount": -255.0}, {"payment_id": "credit_card_4421486", "amount": -0.0}, {"payment_id": "credit_card_4421486", "amount": 255.0}, {"payment_id": "credit_card_4421486", "amount": 0.0}]',
      ],
    ],
    hash: '6e7c4840f9f40fb2329423f7e03067e4ef45c842f9ae1149080248032b464c64',
  },
  {
    name: 'cancel: unknown and odd reservation ids',
    actions: [
      ['cancel_reservation', '{"reservation_id": 5}'],
      ['cancel_reservation', '{"reservation_id": {"a": 1}}'],
    ],
    checks: [
      [0, 'exact', 'Error: reservation not found'],
      [1, 'exact', "Error: unhashable type: 'dict'"],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'update flights: a negative total is credited to the gift card',
    actions: [
      [
        'update_reservation_flights',
        '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": [{"flight_number": "HAT076", "date": "2024-05-23"}], "payment_id": "gift_card_7002574"}',
      ],
      ['get_user_details', '{"user_id": "olivia_moore_2080"}'],
    ],
    checks: [
      [0, 'contains', '"payment_history": [{"payment_id": "gift_card_7002574", "amount": 352}, {"payment_id": "gift_card_7002574", "amount": -156}]'],
      [1, 'contains', '"gift_card_7002574": {"source": "gift_card", "amount": 241, "id": "gift_card_7002574"}'],
    ],
    hash: 'bed68bf3fff1135a77845c855ed8e656a4334670789ed14b580884d3bd149c79',
  },
  {
    name: 'update flights: an empty list refunds everything to a gift card, never to a certificate',
    actions: [
      ['update_reservation_flights', '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": [], "payment_id": "certificate_4961816"}'],
      ['update_reservation_flights', '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": [], "payment_id": "gift_card_7002574"}'],
      ['get_user_details', '{"user_id": "olivia_moore_2080"}'],
    ],
    checks: [
      [0, 'exact', 'Error: certificate cannot be used to update reservation'],
      [1, 'contains', '"flights": [], "passengers"'],
      [1, 'contains', '{"payment_id": "gift_card_7002574", "amount": -352}]'],
      [2, 'contains', '"amount": 437, "id": "gift_card_7002574"'],
    ],
    hash: '9bb418dd160aa881b4fcf0738100e7eec0dd25fe220c456099f47ea38ad2d85a',
  },
  {
    name: 'update flights: kept segments skip the availability checks; a credit card gets a negative entry',
    actions: [
      [
        'update_reservation_flights',
        '{"reservation_id": "DLCYQ9", "cabin": "economy", "flights": [{"flight_number": "HAT046", "date": "2024-05-08"}], "payment_id": "credit_card_8269856"}',
      ],
      [
        'update_reservation_flights',
        '{"reservation_id": "DLCYQ9", "cabin": "basic_economy", "flights": [{"flight_number": "HAT046", "date": "2024-05-08"}, {"flight_number": "HAT142", "date": "2024-05-08"}, {"flight_number": "HAT202", "date": "2024-05-18"}], "payment_id": "credit_card_8269856"}',
      ],
    ],
    checks: [
      [0, 'exact', 'Error: flight HAT046 not available on date 2024-05-08'],
      [1, 'contains', '{"payment_id": "credit_card_8269856", "amount": -84}]'],
    ],
    hash: 'eed2e4f72d673a7e41d77cf06a51b98eca7473bc61d60371c027786ea380541d',
  },
  {
    name: 'update flights: reservation cabin is never updated, so a later old-cabin call keeps the new prices',
    actions: [
      [
        'update_reservation_flights',
        '{"reservation_id": "DLCYQ9", "cabin": "economy", "flights": [{"flight_number": "HAT202", "date": "2024-05-18"}], "payment_id": "credit_card_8269856"}',
      ],
      [
        'update_reservation_flights',
        '{"reservation_id": "DLCYQ9", "cabin": "basic_economy", "flights": [{"flight_number": "HAT202", "date": "2024-05-18"}], "payment_id": "credit_card_8269856"}',
      ],
      [
        'update_reservation_flights',
        '{"reservation_id": "DLCYQ9", "cabin": "business", "flights": [{"flight_number": "HAT202", "date": "2024-05-18"}], "payment_id": "x"}',
      ],
    ],
    checks: [
      [0, 'contains', '"cabin": "basic_economy"'],
      [1, 'contains', '"cabin": "basic_economy"'],
      [2, 'exact', 'Error: payment method not found'],
    ],
    hash: '962f88c758dd78c15e901325013316f4e0da5dcb9d024837ef4e406eaaff5be1',
  },
  {
    name: 'update flights: odd segment types',
    actions: [
      ['update_reservation_flights', '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": ["HAT076"], "payment_id": "gift_card_7002574"}'],
      [
        'update_reservation_flights',
        '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": [{"date": "2024-05-23"}], "payment_id": "gift_card_7002574"}',
      ],
      [
        'update_reservation_flights',
        '{"reservation_id": "SF5VA1", "cabin": "economy", "flights": [{"flight_number": "HAT076", "date": "2024-05-23"}], "payment_id": ["x"]}',
      ],
    ],
    checks: [
      [0, 'exact', "Error: string indices must be integers, not 'str'"],
      [1, 'exact', "Error: 'flight_number'"],
      [2, 'exact', "Error: unhashable type: 'list'"],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'baggages: float counts give float charges; decreases charge int 0',
    actions: [
      ['update_reservation_baggages', '{"reservation_id": "4WQ150", "total_baggages": 6, "nonfree_baggages": 0.5, "payment_id": "gift_card_3576581"}'],
      ['update_reservation_baggages', '{"reservation_id": "4WQ150", "total_baggages": 1, "nonfree_baggages": 0.0, "payment_id": "gift_card_3576581"}'],
      ['update_reservation_baggages', '{"reservation_id": "4WQ150", "total_baggages": 1, "nonfree_baggages": NaN, "payment_id": "gift_card_3576581"}'],
      ['get_user_details', '{"user_id": "chen_jackson_3290"}'],
    ],
    checks: [
      [0, 'contains', '"total_baggages": 6, "nonfree_baggages": 0.5'],
      [0, 'contains', '{"payment_id": "gift_card_3576581", "amount": 25.0}]'],
      [1, 'contains', '"total_baggages": 1, "nonfree_baggages": 0.0'],
      [1, 'contains', '"amount": 25.0}], "created_at"'],
      [2, 'contains', '"nonfree_baggages": NaN'],
      [3, 'contains', '"amount": 220.0, "id": "gift_card_3576581"'],
    ],
    hash: '5437cee3f89a34529191a0a36f1018bc97e32f434c861466c53a9723de2eac1a',
  },
  {
    name: 'baggages: certificate, gift card balance and odd types',
    actions: [
      ['update_reservation_baggages', '{"reservation_id": "SF5VA1", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "certificate_4961816"}'],
      ['update_reservation_baggages', '{"reservation_id": "SF5VA1", "total_baggages": 2, "nonfree_baggages": 2, "payment_id": "gift_card_7002574"}'],
      ['update_reservation_baggages', '{"reservation_id": "SF5VA1", "total_baggages": 2, "nonfree_baggages": null, "payment_id": "gift_card_7002574"}'],
      ['update_reservation_baggages', '{"reservation_id": "SF5VA1", "total_baggages": 2, "nonfree_baggages": true, "payment_id": "gift_card_7002574"}'],
    ],
    checks: [
      [0, 'exact', 'Error: certificate cannot be used to update reservation'],
      [1, 'exact', 'Error: gift card balance is not enough'],
      [2, 'exact', "Error: unsupported operand type(s) for -: 'NoneType' and 'int'"],
      [3, 'contains', '"nonfree_baggages": true'],
      [3, 'contains', '{"payment_id": "gift_card_7002574", "amount": 50}]'],
    ],
    hash: '02b3aad135b573eea41246e6c88d1d1e9615ebb7719fad6fcdeec91994b63065',
  },
  {
    name: "one-stop search: unpadded next day and the first day's record for the second leg",
    actions: [
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "2024-05-17"}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "2024-05-30"}'],
    ],
    checks: [
      [
        0,
        'contains',
        '{"flight_number": "HAT025", "origin": "IAH", "destination": "JFK", "scheduled_departure_time_est": "04:00:00", "scheduled_arrival_time_est": "07:30:00", "status": "available", "available_seats": {"basic_economy": 20, "economy": 2, "business": 1}, "prices": {"basic_economy": 62, "economy": 161, "business": 373}, "date": "2024-05-18"}',
      ],
      [1, 'excludes', '"HAT082"'],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'one-stop search on a custom flights table: "2024-05-6" exists, the second leg shows the first date',
    db: '{"flights": {"F1": {"flight_number": "F1", "origin": "AAA", "destination": "BBB", "scheduled_departure_time_est": "22:00:00", "scheduled_arrival_time_est": "01:00:00+1", "dates": {"2024-05-05": {"status": "available", "n": 1}, "2024-05-07": {"status": "available", "n": 2}}}, "F2": {"flight_number": "F2", "origin": "BBB", "destination": "CCC", "scheduled_departure_time_est": "02:00:00", "scheduled_arrival_time_est": "03:00:00", "dates": {"2024-05-05": {"status": "landed", "m": 1}, "2024-05-6": {"status": "available", "m": 2}, "2024-05-8": {"status": "available", "m": 3}}}}, "reservations": {}, "users": {}}',
    actions: [
      ['search_onestop_flight', '{"origin": "AAA", "destination": "CCC", "date": "2024-05-05"}'],
      ['search_onestop_flight', '{"origin": "AAA", "destination": "CCC", "date": "2024-05-07"}'],
    ],
    checks: [
      [
        0,
        'exact',
        '[[{"flight_number": "F1", "origin": "AAA", "destination": "BBB", "scheduled_departure_time_est": "22:00:00", "scheduled_arrival_time_est": "01:00:00+1", "status": "available", "n": 1, "date": "2024-05-05"}, {"flight_number": "F2", "origin": "BBB", "destination": "CCC", "scheduled_departure_time_est": "02:00:00", "scheduled_arrival_time_est": "03:00:00", "status": "landed", "m": 1, "date": "2024-05-6"}]]',
      ],
      [1, 'exact', "Error: '2024-05-07'"],
    ],
    hash: 'f2030e33ecf327d2dbb16240732f6d3d6944c807c7ce91581caad5cc30c826b2',
  },
  {
    name: 'one-stop search: odd dates',
    actions: [
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": 20240517}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": ["2024-05-17"]}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": {"d": 1}}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "2024-05-1x"}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "2024-05-\\u0660\\u0669"}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "2024-05- 9"}'],
      ['search_onestop_flight', '{"origin": ["SFO"], "destination": "JFK", "date": ["x"]}'],
      ['search_onestop_flight', '{"origin": "SFO", "destination": "JFK", "date": "9"}'],
    ],
    checks: [
      [0, 'exact', "Error: 'int' object is not subscriptable"],
      [1, 'exact', "Error: int() argument must be a string, a bytes-like object or a real number, not 'list'"],
      [2, 'exact', "Error: unhashable type: 'slice'"],
      [3, 'exact', "Error: invalid literal for int() with base 10: '1x'"],
      [4, 'exact', '[]'],
      [5, 'exact', '[]'],
      [6, 'exact', '[]'],
      [7, 'exact', '[]'],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'direct search: a list date raises only when a route matches',
    actions: [
      ['search_direct_flight', '{"origin": "JFK", "destination": "SEA", "date": ["2024-05-20"]}'],
      ['search_direct_flight', '{"origin": "JFK", "destination": "XXX", "date": ["2024-05-20"]}'],
      ['search_direct_flight', '{"origin": "JFK", "destination": "SEA", "date": "2024-05-01"}'],
    ],
    checks: [
      [0, 'exact', "Error: unhashable type: 'list'"],
      [1, 'exact', '[]'],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
  {
    name: 'send_certificate: stores the amount as given and returns None after three',
    actions: [
      ['send_certificate', '{"user_id": "mia_li_3668", "amount": [1, 2]}'],
      ['send_certificate', '{"user_id": "mia_li_3668", "amount": {"a": "b"}}'],
      ['send_certificate', '{"user_id": "mia_li_3668", "amount": true}'],
      ['send_certificate', '{"user_id": "mia_li_3668", "amount": 1}'],
      ['send_certificate', '{"user_id": ["mia_li_3668"], "amount": 1}'],
    ],
    checks: [
      [0, 'exact', 'Certificate certificate_3221322 added to user mia_li_3668 with amount [1, 2].'],
      [1, 'exact', "Certificate certificate_3221323 added to user mia_li_3668 with amount {'a': 'b'}."],
      [2, 'exact', 'Certificate certificate_3221324 added to user mia_li_3668 with amount True.'],
      [3, 'none', ''],
      [4, 'exact', "Error: unhashable type: 'list'"],
    ],
    hash: '37debe118d75ff59a2e34a3c06525af6e357fa1df7c8dfb3eb79f620fc4ce5f5',
  },
  {
    name: 'passengers: anything with a matching len() is stored',
    actions: [
      ['update_reservation_passengers', '{"reservation_id": "4WQ150", "passengers": {"a": 1, "b": 2, "c": 3}}'],
      ['update_reservation_passengers', '{"reservation_id": "4WQ150", "passengers": 3}'],
      ['update_reservation_passengers', '{"reservation_id": "4WQ150", "passengers": null}'],
    ],
    checks: [
      [0, 'contains', '"passengers": {"a": 1, "b": 2, "c": 3}, "payment_history"'],
      [1, 'exact', "Error: object of type 'int' has no len()"],
      [2, 'exact', "Error: object of type 'NoneType' has no len()"],
    ],
    hash: 'cf9f26cc2a9e64359ef307701cbdf4a19bf1ca9e8b7eade2e8ca5fea029d25ba',
  },
  {
    name: 'read tools: odd ids and argument binding',
    actions: [
      ['get_reservation_details', '{"reservation_id": {"a": 1}}'],
      ['get_reservation_details', '{"reservation_id": 4}'],
      ['get_user_details', '{"user_id": ["x"]}'],
      ['list_all_airports', '{"foo": 1}'],
      ['get_user_details', '{"user_id": "x", "data": 1}'],
      ['search_direct_flight', '{"origin": "JFK"}'],
    ],
    checks: [
      [0, 'exact', "Error: unhashable type: 'dict'"],
      [1, 'exact', 'Error: user not found'],
      [2, 'exact', "Error: unhashable type: 'list'"],
      [3, 'exact', "Error: ListAllAirports.invoke() got an unexpected keyword argument 'foo'"],
      [4, 'exact', "Error: tau_bench.envs.airline.tools.get_user_details.GetUserDetails.invoke() got multiple values for keyword argument 'data'"],
      [5, 'exact', "Error: SearchDirectFlight.invoke() missing 2 required positional arguments: 'destination' and 'date'"],
    ],
    hash: '4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290',
  },
];

describeShared('airline tools: extra cases (τ-bench 14bf0ef semantics)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    let state = c.db === undefined ? sharedDb('14bf0ef', 'airline') : freeze(parseJson(c.db) as PyDict, true);
    const observations = c.actions.map(([name, kwargs]) => {
      const tool = TOOLS.airline.get(name);
      if (!tool) throw new Error(`no airline tool ${name}`);
      const out = executeTool(state, tool, parseJson(kwargs) as PyDict);
      state = out.state;
      return out.observation;
    });
    for (const [step, kind, text] of c.checks) {
      const obs = observations[step];
      const label = `step ${step} (${c.actions[step]![0]})`;
      if (kind === 'none') expect(obs, label).toBeNull();
      else if (kind === 'exact') expect(obs, label).toBe(text);
      else if (kind === 'contains') expect(obs, label).toContain(text);
      else expect(obs, label).not.toContain(text);
    }
    expect(consistentHash(state)).toBe(c.hash);
  });
});
