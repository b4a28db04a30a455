import { getItem, setItem } from '../../../py/ops';
import type { PyDict, PyValue } from '../../../py/value';

/** A flight's fields except `dates`, then the fields of one day's record (dict.update order). */
// Python parity: `{k: v for k, v in flight.items() if k != "dates"}` followed by `.update(flight["dates"][date])`.
export function flightOnDay(flight: PyValue, day: PyValue): PyDict {
  const out: PyDict = new Map();
  for (const [k, v] of asDict(flight)) if (k !== 'dates') out.set(k, v);
  for (const [k, v] of asDict(day)) setItem(out, k, v);
  return out;
}

/** `flight["dates"][date]`. */
export const dayRecord = (flight: PyValue, date: PyValue): PyValue => getItem(getItem(flight, 'dates'), date);

function asDict(v: PyValue): PyDict {
  if (v instanceof Map) return v;
  // Unreachable: callers have already read `flight["origin"]` and `day["status"]`, which only a dict allows.
  throw new Error('flight record is not a dict');
}
