/** Python attribute and operator access over τ² values (models, dicts, lists, scalars), with CPython's errors. */
import { PyException } from '../../../py/errors';
import { dateStr, EnumMember, PyDate, PyDateTime, PydModel, tStr, tTypeName, type TDict, type TValue } from '../../../py/pydantic';
import type { PyValue } from '../../../py/value';
import { add, contains, eq, ge, getItem, len, lt, sub } from '../../../py/ops';

export const valueError = (text: string): PyException => new PyException('ValueError', text);

// Python parity: getattr(obj, name) on a model, else AttributeError.
export function attr(v: TValue, name: string): TValue {
  if (v instanceof PydModel && v.fields.has(name)) return v.fields.get(name)!;
  throw new PyException('AttributeError', `'${tTypeName(v)}' object has no attribute '${name}'`);
}

export function setAttr(v: TValue, name: string, value: TValue): void {
  if (v instanceof PydModel && v.fields.has(name)) v.fields.set(name, value);
  else throw new PyException('AttributeError', `'${tTypeName(v)}' object has no attribute '${name}'`);
}

// The py/ops helpers take PyValue; models only ever reach them as operands they reject.
const pv = (v: TValue): PyValue => v as PyValue;
export const item = (obj: TValue, key: TValue): TValue => getItem(pv(obj), pv(key)) as TValue;
export const has = (container: TValue, x: TValue): boolean => contains(pv(container), pv(x));
export const plus = (a: TValue, b: TValue, op: '+' | '+=' = '+'): TValue => add(pv(a), pv(b), op) as TValue;
export const minus = (a: TValue, b: TValue, op: '-' | '-=' = '-'): TValue => sub(pv(a), pv(b), op) as TValue;
export const less = (a: TValue, b: TValue): boolean => lt(pv(a), pv(b));
/** Python `a >= b` (TypeError between a number and a str). */
export const atLeast = (a: TValue, b: TValue): boolean => ge(pv(a), pv(b));
// Python parity: == (a str Enum member equals its value; dates by value; models by identity here).
export function same(a: TValue, b: TValue): boolean {
  // Two str (most comparisons: a flight's airports, a status): `eq`'s answer, without the class tests below.
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (a instanceof EnumMember) a = a.value;
  if (b instanceof EnumMember) b = b.value;
  if (a instanceof PyDate || a instanceof PyDateTime || b instanceof PyDate || b instanceof PyDateTime)
    return (
      (a instanceof PyDate || a instanceof PyDateTime) &&
      (b instanceof PyDate || b instanceof PyDateTime) &&
      a.constructor === b.constructor &&
      dateStr(a) === dateStr(b)
    );
  return a instanceof PydModel || b instanceof PydModel ? a === b : eq(pv(a), pv(b));
}
export const size = (v: TValue): number => len(pv(v));
export const text = tStr;

/** A dict field of a model. */
export const table = (db: PydModel, name: string): TDict => db.get(name) as TDict;

/** `[...]` iteration of a list argument (lists, dict keys, str characters; else TypeError). */
export function items(v: TValue): TValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v.keys()];
  if (typeof v === 'string') return [...v];
  throw new PyException('TypeError', `'${tTypeName(v)}' object is not iterable`);
}
