/**
 * `toml.load` (the `toml` package τ² reads its telecom data with) for the TOML its data files use:
 * `[table]` and `[[array.of.tables]]` headers (dotted, a sub-array attached to the last element of its
 * parent array), `key = value` with basic strings, integers (int), floats (float), booleans, and
 * one-line arrays of those. Anything else is a `TomlError` naming the line.
 */
import type { PyDict, PyValue } from './value';

export class TomlError extends Error {}

const STRING = /^"((?:[^"\\]|\\.)*)"/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

function unescape(s: string, line: number): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) => {
    if (e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    const r = ESCAPES[e];
    if (r === undefined) throw new TomlError(`line ${line}: unknown escape \\${e}`);
    return r;
  });
}

/** One value at the start of `s`: the value and the rest of the text. */
function value(s: string, line: number): [PyValue, string] {
  const str = STRING.exec(s);
  if (str) return [unescape(str[1]!, line), s.slice(str[0].length)];
  if (s.startsWith('true')) return [true, s.slice(4)];
  if (s.startsWith('false')) return [false, s.slice(5)];
  if (s.startsWith('[')) {
    const out: PyValue[] = [];
    let rest = s.slice(1).trimStart();
    while (!rest.startsWith(']')) {
      const [v, r] = value(rest, line);
      out.push(v);
      rest = r.trimStart();
      if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
      else if (!rest.startsWith(']')) throw new TomlError(`line ${line}: expected , or ] in an array`);
    }
    return [out, rest.slice(1)];
  }
  const num = /^[+-]?(\d[\d_]*)(\.\d[\d_]*)?([eE][+-]?\d+)?/.exec(s);
  if (num) {
    const text = num[0].replace(/_/g, '');
    // Python parity: toml.loads — an integer literal is int, one with a fraction or exponent float.
    return [num[2] === undefined && num[3] === undefined ? BigInt(text) : Number(text), s.slice(num[0].length)];
  }
  throw new TomlError(`line ${line}: a value this reader does not know: ${s.slice(0, 40)}`);
}

const tableAt = (root: PyDict, path: readonly string[], line: number): PyDict => {
  let t = root;
  for (const k of path) {
    let next = t.get(k);
    if (next === undefined) t.set(k, (next = new Map()));
    if (Array.isArray(next)) next = next[next.length - 1];
    if (!(next instanceof Map)) throw new TomlError(`line ${line}: ${path.join('.')} is not a table`);
    t = next;
  }
  return t;
};

export function parseToml(text: string): PyDict {
  const root: PyDict = new Map();
  let current = root;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const arr = /^\[\[\s*([\w.-]+)\s*\]\]$/.exec(s);
    if (arr) {
      const path = arr[1]!.split('.');
      const parent = tableAt(root, path.slice(0, -1), line);
      const key = path[path.length - 1]!;
      let list = parent.get(key);
      if (list === undefined) parent.set(key, (list = []));
      if (!Array.isArray(list)) throw new TomlError(`line ${line}: ${arr[1]} is not an array of tables`);
      current = new Map();
      list.push(current);
      return;
    }
    const table = /^\[\s*([\w.-]+)\s*\]$/.exec(s);
    if (table) {
      current = tableAt(root, table[1]!.split('.'), line);
      return;
    }
    const kv = /^([\w-]+|"[^"]*")\s*=\s*(.*)$/.exec(s);
    if (!kv) throw new TomlError(`line ${line}: not a key = value line`);
    const key = kv[1]!.startsWith('"') ? kv[1]!.slice(1, -1) : kv[1]!;
    const [v, rest] = value(kv[2]!, line);
    if (rest.trim() !== '' && !rest.trim().startsWith('#')) throw new TomlError(`line ${line}: text after the value`);
    if (current.has(key)) throw new TomlError(`line ${line}: ${key} is given twice`);
    current.set(key, v);
  });
  return root;
}
