/**
 * Python operators and builtins over PyValue, with CPython 3.11's results and
 * exception texts. Tools are written against these so that unexpected argument
 * types fail the way they fail in τ-bench.
 */
import { attributeError, indexError, keyError, PyException, typeError } from './errors';
import { pyLower } from './lower';
import { pyRepr } from './repr';
import { typeName, type PyValue } from './value';

type Num = bigint | number | boolean;

const isIntLike = (v: PyValue): v is bigint | boolean => typeof v === 'bigint' || typeof v === 'boolean';
const isNum = (v: PyValue): v is Num => isIntLike(v) || typeof v === 'number';
const asBig = (v: bigint | boolean): bigint => (typeof v === 'boolean' ? (v ? 1n : 0n) : v);

/** int → float conversion, raising like Python when the int is too large. */
export function toFloat(v: Num): number {
  if (typeof v === 'number') return v;
  const n = Number(asBig(v));
  if (!Number.isFinite(n)) throw new PyException('OverflowError', 'int too large to convert to float');
  return n;
}

function unsupported(op: string, a: PyValue, b: PyValue): PyException {
  return typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** `a + b` (`op` is `+` or `+=`, which only changes the error text). */
export function add(a: PyValue, b: PyValue, op: '+' | '+=' = '+'): PyValue {
  if (isNum(a) && isNum(b)) {
    if (isIntLike(a) && isIntLike(b)) return asBig(a) + asBig(b);
    return toFloat(a) + toFloat(b);
  }
  if (typeof a === 'string') {
    if (typeof b === 'string') return a + b;
    throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
  }
  if (Array.isArray(a)) {
    if (Array.isArray(b)) return op === '+=' ? (a.push(...b), a) : [...a, ...b];
    if (op === '+=' && b !== null && typeof b === 'string') return (a.push(...b), a);
    throw typeError(op === '+=' ? `'${typeName(b)}' object is not iterable` : `can only concatenate list (not "${typeName(b)}") to list`);
  }
  throw unsupported(op, a, b);
}

export function sub(a: PyValue, b: PyValue, op: '-' | '-=' = '-'): PyValue {
  if (isNum(a) && isNum(b)) {
    if (isIntLike(a) && isIntLike(b)) return asBig(a) - asBig(b);
    return toFloat(a) - toFloat(b);
  }
  throw unsupported(op, a, b);
}

export function mul(a: PyValue, b: PyValue, op: '*' | '*=' = '*'): PyValue {
  if (isNum(a) && isNum(b)) {
    if (isIntLike(a) && isIntLike(b)) return asBig(a) * asBig(b);
    return toFloat(a) * toFloat(b);
  }
  const seq = typeof a === 'string' || Array.isArray(a) ? a : typeof b === 'string' || Array.isArray(b) ? b : null;
  const n = seq === a ? b : a;
  if (seq !== null && isIntLike(n)) {
    const times = Number(asBig(n));
    if (typeof seq === 'string') return times > 0 ? seq.repeat(times) : '';
    const out: PyValue[] = [];
    for (let i = 0; i < times; i++) out.push(...seq);
    return out;
  }
  if (seq !== null && n !== seq) throw typeError(`can't multiply sequence by non-int of type '${typeName(n)}'`);
  throw unsupported(op, a, b);
}

export function neg(a: PyValue): PyValue {
  if (isIntLike(a)) return -asBig(a);
  if (typeof a === 'number') return -a;
  throw typeError(`bad operand type for unary -: '${typeName(a)}'`);
}

export function pyAbs(a: PyValue): PyValue {
  if (isIntLike(a)) {
    const x = asBig(a);
    return x < 0n ? -x : x;
  }
  if (typeof a === 'number') return Math.abs(a);
  throw typeError(`bad operand type for abs(): '${typeName(a)}'`);
}

/** Python `round(x, 2)` on a float: correctly rounded from the exact double, ties to even. */
// Python parity: float.__round__ (double_round via _Py_dg_dtoa mode 3).
export function roundFloat2(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  const ax = Math.abs(x);
  // toFixed rounds the exact binary value with ties away from zero. The only exact ties at
  // two digits are fractions .125/.375/.625/.875 (ax − floor(ax) is exact); .125 and .625 go down.
  const frac = ax - Math.floor(ax);
  const text = frac === 0.125 || frac === 0.625 ? ax.toFixed(3).slice(0, -1) : ax.toFixed(2);
  const r = Number(text);
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** `format(x, '.2f')` of a float: `inf`/`nan` as Python spells them, every digit past 1e21 (no exponent), a negative zero's sign kept. */
// Python parity: float.__format__ with '.2f' (round-half-even on the exact binary value).
export function formatFloat2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const r = roundFloat2(x);
  const ar = Math.abs(r);
  const body = ar >= 1e21 ? `${BigInt(ar)}.00` : ar.toFixed(2);
  return r < 0 || Object.is(r, -0) ? `-${body}` : body;
}

/** `round(v, 2)`: ints (and bools) come back unchanged as ints. */
export function round2(v: PyValue): PyValue {
  if (isIntLike(v)) return asBig(v);
  if (typeof v === 'number') return roundFloat2(v);
  throw typeError(`type ${typeName(v)} doesn't define __round__ method`);
}

/** Python `sum(xs)`: left-to-right from int 0 (CPython ≤ 3.11 float summation). */
// Python parity: builtin sum, CPython 3.11 (no Neumaier compensation).
export function pySum(xs: Iterable<PyValue>): PyValue {
  let acc: PyValue = 0n;
  for (const x of xs) acc = add(acc, x);
  return acc;
}

function orderCompare(op: string, a: PyValue, b: PyValue): number {
  if (isNum(a) && isNum(b)) {
    const x = typeof a === 'boolean' ? asBig(a) : a;
    const y = typeof b === 'boolean' ? asBig(b) : b;
    // JS compares bigint with number exactly, as Python does int with float.
    return x < y ? -1 : x > y ? 1 : x == y ? 0 : NaN;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw typeError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}
export const lt = (a: PyValue, b: PyValue): boolean => orderCompare('<', a, b) < 0;
export const gt = (a: PyValue, b: PyValue): boolean => orderCompare('>', a, b) > 0;
export const le = (a: PyValue, b: PyValue): boolean => orderCompare('<=', a, b) <= 0;
export const ge = (a: PyValue, b: PyValue): boolean => orderCompare('>=', a, b) >= 0;

/** Python `==`. */
export function eq(a: PyValue, b: PyValue): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  if (isNum(a) && isNum(b)) {
    const x = typeof a === 'boolean' ? asBig(a) : a;
    const y = typeof b === 'boolean' ? asBig(b) : b;
    return x == y;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameOrEq(x, b[i]!));
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, x] of a) {
      if (!b.has(k) || !sameOrEq(x, b.get(k)!)) return false;
    }
    return true;
  }
  return false;
}

/**
 * `x is y or x == y`, the comparison of `in`, `list.count` and container equality. NaN from
 * `json.loads` is one shared object, so NaN matches NaN there (but not with plain `==`).
 */
// Python parity: PyObject_RichCompareBool (identity shortcut) with json's shared NaN constant.
export function sameOrEq(a: PyValue, b: PyValue): boolean {
  return (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) || eq(a, b);
}

export function truthy(v: PyValue): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'bigint':
      return v !== 0n;
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
  }
  return Array.isArray(v) ? v.length > 0 : v.size > 0;
}

function assertHashable(v: PyValue): void {
  if (Array.isArray(v) || v instanceof Map) throw typeError(`unhashable type: '${typeName(v)}'`);
}

/** The dict key that a hashable Python value would match, or undefined (JSON keys are strings). */
function dictKey(k: PyValue): string | undefined {
  assertHashable(k);
  return typeof k === 'string' ? k : undefined;
}

/** `obj[key]`. */
export function getItem(obj: PyValue, key: PyValue): PyValue {
  if (obj instanceof Map) {
    const k = dictKey(key);
    if (k !== undefined && obj.has(k)) return obj.get(k)!;
    throw keyError(key);
  }
  if (Array.isArray(obj)) {
    if (!isIntLike(key)) throw typeError(`list indices must be integers or slices, not ${typeName(key)}`);
    let i = Number(asBig(key));
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw indexError('list index out of range');
    return obj[i]!;
  }
  if (typeof obj === 'string') {
    if (!isIntLike(key)) throw typeError(`string indices must be integers, not '${typeName(key)}'`);
    const cps = [...obj];
    let i = Number(asBig(key));
    if (i < 0) i += cps.length;
    if (i < 0 || i >= cps.length) throw indexError('string index out of range');
    return cps[i]!;
  }
  throw typeError(`'${typeName(obj)}' object is not subscriptable`);
}

/** `obj[key] = value` for a dict (keeps the position of an existing key). */
export function setItem(obj: PyValue, key: PyValue, value: PyValue): void {
  if (obj instanceof Map) {
    assertHashable(key);
    if (typeof key !== 'string') throw typeError(`non-string dict key ${pyRepr(key)} is not supported`);
    obj.set(key, value);
    return;
  }
  if (Array.isArray(obj)) {
    if (!isIntLike(key)) throw typeError(`list indices must be integers or slices, not ${typeName(key)}`);
    let i = Number(asBig(key));
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw indexError('list assignment index out of range');
    obj[i] = value;
    return;
  }
  throw typeError(`'${typeName(obj)}' object does not support item assignment`);
}

/** `x in container`. */
export function contains(container: PyValue, x: PyValue): boolean {
  if (container instanceof Map) {
    const k = dictKey(x);
    return k !== undefined && container.has(k);
  }
  if (Array.isArray(container)) return container.some((y) => sameOrEq(y, x));
  if (typeof container === 'string') {
    if (typeof x !== 'string') throw typeError(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    return container.includes(x);
  }
  throw typeError(`argument of type '${typeName(container)}' is not iterable`);
}

/** `iter(v)`: list items, dict keys, string characters (code points). */
export function iterate(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v.keys()];
  if (typeof v === 'string') return [...v];
  throw typeError(`'${typeName(v)}' object is not iterable`);
}

export function len(v: PyValue): number {
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (typeof v === 'string') return [...v].length;
  throw typeError(`object of type '${typeName(v)}' has no len()`);
}

/** `s.lower()`. */
export function lower(v: PyValue): string {
  if (typeof v === 'string') return pyLower(v);
  throw attributeError(`'${typeName(v)}' object has no attribute 'lower'`);
}

/** `seq.count(x)` for a list or a string. */
export function count(seq: PyValue, x: PyValue): number {
  if (Array.isArray(seq)) return seq.filter((y) => sameOrEq(y, x)).length;
  if (typeof seq === 'string') {
    if (typeof x !== 'string') throw typeError(`must be str, not ${typeName(x)}`);
    if (x === '') return len(seq) + 1;
    return seq.split(x).length - 1;
  }
  throw attributeError(`'${typeName(seq)}' object has no attribute 'count'`);
}

/** `sorted(xs)` for a list of strings or numbers (raises on mixed types like Python). */
// Python parity: sorted() uses only `<`; strings compare by code point.
export function pySorted(v: PyValue): PyValue[] {
  const items = [...iterate(v)];
  const cmp = (a: PyValue, b: PyValue): number => {
    if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : codePointLess(a, b) ? -1 : 1;
    return lt(a, b) ? -1 : lt(b, a) ? 1 : 0;
  };
  // Python's sort is stable; Array.prototype.sort is stable too.
  return items.sort(cmp);
}

function codePointLess(a: string, b: string): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y;
    if (x > 0xffff) i++;
  }
  return a.length < b.length;
}
