import { sortedKeys } from '../hashable';
import { dumpsFloat, dumpsStr } from '../json-dumps';
import { EnumMember, PyDate, PyDateTime, PydModel, type TValue } from './model';
import { dateStr, tStr } from './repr';

/** pydantic `model_dump()` (python mode): models become dicts in field order, recursively. */
export function modelDump(v: TValue): TValue {
  if (v instanceof PydModel) {
    const out = new Map<string, TValue>();
    for (const [k, x] of v.fields) out.set(k, modelDump(x));
    return out;
  }
  if (v instanceof Map) {
    const out = new Map<string, TValue>();
    for (const [k, x] of v) out.set(k, modelDump(x));
    return out;
  }
  if (Array.isArray(v)) return v.map(modelDump);
  return v;
}

/**
 * Python `json.dumps(v, sort_keys=…, default=str)` with the default separators and ensure_ascii.
 * A model met here (not dumped first) goes through `default=str`, as in Python.
 */
// Python parity: json.dumps (separators (', ', ': '), ensure_ascii=True, default=str).
export function pyJsonDumps(v: TValue, options: { readonly sortKeys?: boolean } = {}): string {
  const sort = options.sortKeys === true;
  const out: string[] = [];
  const walk = (x: TValue): void => {
    if (x === null) out.push('null');
    else if (typeof x === 'boolean') out.push(x ? 'true' : 'false');
    else if (typeof x === 'bigint') out.push(x.toString());
    else if (typeof x === 'number') out.push(dumpsFloat(x));
    else if (typeof x === 'string') out.push(dumpsStr(x));
    else if (x instanceof EnumMember)
      out.push(dumpsStr(x.value)); // a str subclass: its value
    else if (x instanceof PyDate || x instanceof PyDateTime)
      out.push(dumpsStr(dateStr(x))); // default=str
    else if (x instanceof PydModel) out.push(dumpsStr(tStr(x)));
    else if (Array.isArray(x)) {
      out.push('[');
      x.forEach((y, i) => {
        if (i > 0) out.push(', ');
        walk(y);
      });
      out.push(']');
    } else {
      out.push('{');
      const keys = sort ? sortedKeys(x) : [...x.keys()];
      keys.forEach((k, i) => {
        out.push(i > 0 ? ', ' : '', dumpsStr(k), ': ');
        walk(x.get(k)!);
      });
      out.push('}');
    }
  };
  walk(v);
  return out.join('');
}
