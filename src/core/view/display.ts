import { dumpsFloat, dumpsStr } from '../py/json-dumps';
import type { PyValue } from '../py/value';

/**
 * Pretty JSON of a Python value that keeps Python's number text (`250.0` stays `250.0`)
 * and the dict order. Strings are JSON-escaped but keep non-ASCII characters readable.
 */
export function pyJson(v: PyValue, indent = 2, depth = 0): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      return dumpsFloat(v);
    case 'string':
      return readableStr(v);
  }
  const pad = ' '.repeat(indent * (depth + 1));
  const end = ' '.repeat(indent * depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => pad + pyJson(x, indent, depth + 1)).join(',\n')}\n${end}]`;
  }
  if (v.size === 0) return '{}';
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${pad}${readableStr(k)}: ${pyJson(x, indent, depth + 1)}`);
  return `{\n${parts.join(',\n')}\n${end}}`;
}

/** One-line form of pyJson. */
export function pyJsonInline(v: PyValue): string {
  if (Array.isArray(v)) return `[${v.map(pyJsonInline).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${readableStr(k)}: ${pyJsonInline(x)}`).join(', ')}}`;
  return pyJson(v);
}

function readableStr(s: string): string {
  // Control characters, quotes and backslashes escaped; other characters kept as they are.
  if (!/[\x00-\x1f"\\\x7f]/.test(s)) return `"${s}"`;
  return dumpsStr(s).replace(/\\u([0-9a-f]{4})/g, (m, h: string) => {
    const c = parseInt(h, 16);
    return c < 0x20 || c === 0x7f || (c >= 0xd800 && c <= 0xdfff) ? m : String.fromCharCode(c);
  });
}
