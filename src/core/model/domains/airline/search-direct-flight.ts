import { dictValues } from '../../../py/dict-methods';
import { jsonDumps } from '../../../py/json-dumps';
import { contains, eq, getItem } from '../../../py/ops';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';
import { dayRecord, flightOnDay } from './flight-listing';

export const searchDirectFlight = defineTool({
  name: 'search_direct_flight',
  className: 'SearchDirectFlight',
  module: 'tau_bench.envs.airline.tools.search_direct_flight',
  params: ['origin', 'destination', 'date'],
  writes: false,
  invoke: (data, { origin, destination, date }) => {
    const results: PyValue[] = [];
    for (const flight of dictValues(getItem(data, 'flights'))) {
      if (!(eq(getItem(flight, 'origin'), origin) && eq(getItem(flight, 'destination'), destination))) continue;
      if (contains(getItem(flight, 'dates'), date) && eq(getItem(dayRecord(flight, date), 'status'), 'available'))
        results.push(flightOnDay(flight, dayRecord(flight, date)));
    }
    return jsonDumps(results);
  },
});
