import { typeError } from './errors';
import { typeName, type PyValue } from './value';

/** `v[start:]` for a str (by code point) or a list; other types raise like CPython 3.11. */
// Python parity: sequence slicing with a step of 1 and no stop (CPython 3.11 slices are unhashable).
export function sliceFrom(v: PyValue, start: number): PyValue {
  if (typeof v === 'string') {
    const cps = [...v];
    return cps.slice(clampStart(start, cps.length)).join('');
  }
  if (Array.isArray(v)) return v.slice(clampStart(start, v.length));
  if (v instanceof Map) throw typeError("unhashable type: 'slice'");
  throw typeError(`'${typeName(v)}' object is not subscriptable`);
}

function clampStart(start: number, length: number): number {
  if (start < 0) return Math.max(0, start + length);
  return Math.min(start, length);
}
