import { reprFloat } from './repr';
import type { PyDict, PyList, PyValue } from './value';

const ESC: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

// Python parity: json.encoder.py_encode_basestring_ascii.
export function dumpsStr(s: string): string {
  if (!/[^\x20-\x21\x23-\x5b\x5d-\x7e]/.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const c = s.charCodeAt(i);
    const e = ESC[ch];
    if (e !== undefined) out += e;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else out += '\\u' + c.toString(16).padStart(4, '0');
  }
  return out + '"';
}

/** A float as `json.dumps` writes it. */
export function dumpsFloat(x: number): string {
  // Python parity: json.encoder floatstr — NaN / Infinity / -Infinity, else float.__repr__.
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return reprFloat(x);
}

/** `json.dumps(v)` with Python defaults: `", "` and `": "`, ensure_ascii, insertion order. */
// Python parity: json.dumps (separators (', ', ': '), ensure_ascii=True).
export function jsonDumps(v: PyValue): string {
  if (v !== null && typeof v === 'object') {
    if (Array.isArray(v)) return `[${v.map(jsonDumps).join(', ')}]`;
    const parts: string[] = [];
    for (const [k, x] of v) parts.push(`${dumpsStr(k)}: ${jsonDumps(x)}`);
    return `{${parts.join(', ')}}`;
  }
  return dumpsScalar(v, dumpsStr);
}

/** The JSON text of a value that is not a list or dict, with Python's number text; strings written by `str`. */
export function dumpsScalar(v: Exclude<PyValue, PyList | PyDict>, str: (s: string) => string): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      return dumpsFloat(v);
    case 'string':
      return str(v);
  }
}
