import { parseJson } from '../../../../py/json-parse';
import type { TValue } from '../../../../py/pydantic';
import type { Tau2Domain } from '../toolkit';
import { FlightDb } from './models';
import { AGENT_TOOLS } from './tools';

export const AIRLINE: Tau2Domain = {
  name: 'airline',
  agent: {
    className: 'AirlineTools',
    db: FlightDb,
    tools: AGENT_TOOLS,
    functions: [],
    // Python parity: AirlineTools' helpers, found by getattr (not ported).
    pythonOnly: [
      '_get_user',
      '_get_reservation',
      '_get_flight',
      '_get_flight_instance',
      '_get_flights_from_flight_infos',
      '_get_new_reservation_id',
      '_get_new_payment_id',
      '_get_datetime',
      '_search_direct_flight',
      '_payment_for_update',
    ],
  },
  user: null,
  dbFiles: { agent: 'db.json', user: null },
  parseDbFile: (text) => parseJson(text) as TValue,
  copyOnWrite: true,
};
