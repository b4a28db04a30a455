import { dictValues } from '../../../py/dict-methods';
import { pyInt } from '../../../py/int-parse';
import { jsonDumps } from '../../../py/json-dumps';
import { add, contains, eq, getItem, gt, setItem } from '../../../py/ops';
import { pyStr } from '../../../py/repr';
import { sliceFrom } from '../../../py/slice';
import type { PyValue } from '../../../py/value';
import { defineTool } from '../tool';
import { dayRecord, flightOnDay } from './flight-listing';

export const searchOnestopFlight = defineTool({
  name: 'search_onestop_flight',
  className: 'SearchOnestopFlight',
  module: 'tau_bench.envs.airline.tools.search_onestop_flight',
  params: ['origin', 'destination', 'date'],
  writes: false,
  invoke: (data, { origin, destination, date }) => {
    const flights = dictValues(getItem(data, 'flights'));
    const results: PyValue[] = [];
    for (const flight1 of flights) {
      if (!eq(getItem(flight1, 'origin'), origin)) continue;
      for (const flight2 of flights) {
        if (!(eq(getItem(flight2, 'destination'), destination) && eq(getItem(flight1, 'destination'), getItem(flight2, 'origin')))) continue;
        const arrival1 = getItem(flight1, 'scheduled_arrival_time_est');
        // Python parity: SearchOnestopFlight.invoke — next day is "2024-05-" + (day + 1), unpadded.
        const date2: PyValue = contains(arrival1, '+1') ? `2024-05-${pyStr(add(pyInt(sliceFrom(date, -2)), 1n))}` : date;
        if (gt(arrival1, getItem(flight2, 'scheduled_departure_time_est'))) continue;
        if (!(contains(getItem(flight1, 'dates'), date) && contains(getItem(flight2, 'dates'), date2))) continue;
        if (!(eq(getItem(dayRecord(flight1, date), 'status'), 'available') && eq(getItem(dayRecord(flight2, date2), 'status'), 'available'))) continue;
        const result1 = flightOnDay(flight1, dayRecord(flight1, date));
        setItem(result1, 'date', date);
        // Python parity: SearchOnestopFlight.invoke shows the second leg's record for `date`, not `date2`.
        const result2 = flightOnDay(flight2, dayRecord(flight2, date));
        setItem(result2, 'date', date2);
        results.push([result1, result2]);
      }
    }
    return jsonDumps(results);
  },
});
