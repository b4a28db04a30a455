import { attributeError } from './errors';
import { typeName, type PyDict, type PyValue } from './value';

function asDict(v: PyValue, method: string): PyDict {
  if (v instanceof Map) return v;
  throw attributeError(`'${typeName(v)}' object has no attribute '${method}'`);
}

/** `d.items()`. */
export function dictItems(d: PyValue): [string, PyValue][] {
  return [...asDict(d, 'items').entries()];
}

/** `d.values()`. */
export function dictValues(d: PyValue): PyValue[] {
  return [...asDict(d, 'values').values()];
}
