/**
 * Python values as τ-bench's tools see them after `json.loads`.
 *
 *   None → null, bool → boolean, int → bigint, float → number,
 *   str → string, list → PyList (array), dict → PyDict (Map, insertion order).
 *
 * A JS number is always a Python float and a bigint always a Python int, so
 * `1000.0` and `1000` never collapse into one value.
 */
export type PyDict = Map<string, PyValue>;
export type PyList = PyValue[];
export type PyValue = null | boolean | bigint | number | string | PyList | PyDict;

export type PyTypeName = 'NoneType' | 'bool' | 'int' | 'float' | 'str' | 'list' | 'dict';

export function typeName(v: PyValue): PyTypeName {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
    default:
      return Array.isArray(v) ? 'list' : 'dict';
  }
}

export const isDict = (v: PyValue | undefined): v is PyDict => v instanceof Map;
export const isList = (v: PyValue | undefined): v is PyList => Array.isArray(v);
export const isStr = (v: PyValue | undefined): v is string => typeof v === 'string';
export const isInt = (v: PyValue | undefined): v is bigint => typeof v === 'bigint';
export const isFloat = (v: PyValue | undefined): v is number => typeof v === 'number';

/** Builds a dict from entries, keeping their order. */
export function dict(entries: Iterable<readonly [string, PyValue]>): PyDict {
  return new Map(entries);
}

/** Deep copy (Python `copy.deepcopy` of JSON-shaped data). */
export function deepCopy<T extends PyValue>(v: T): T {
  const x: PyValue = v;
  if (x instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, y] of x) out.set(k, deepCopy(y));
    return out as T;
  }
  if (Array.isArray(x)) return x.map((y) => deepCopy(y)) as T;
  return v;
}

/**
 * `s` as a string of its own. A string cut from a longer one (what a parser's `slice` gives, 13
 * characters or more) keeps the whole longer one alive in V8: a small field kept from a parsed
 * episode would hold the episode's whole text. Short strings are copies already.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** A string record (keys and values) of strings of their own (see `ownString`); a key named `__proto__` stays an ordinary key. */
export function ownStrings(r: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [ownString(k), ownString(v)]));
}

/** `deepCopy` whose strings (keys too) are strings of their own (see `ownString`): for values kept long after their text is gone. */
export function detached<T extends PyValue>(v: T): T {
  const x: PyValue = v;
  if (typeof x === 'string') return ownString(x) as T;
  if (x instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, y] of x) out.set(ownString(k), detached(y));
    return out as T;
  }
  if (Array.isArray(x)) return x.map((y) => detached(y)) as T;
  return v;
}

/** Converts a Python value to plain JSON-ish JS for display (ints beyond 2^53 become strings). */
export function toPlain(v: PyValue): unknown {
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) Object.defineProperty(out, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v.toString();
  }
  return v;
}
