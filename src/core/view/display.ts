import { dumpsScalar, dumpsStr } from '../py/json-dumps';
import { tryParseJson } from '../py/json-parse';
import type { PyValue } from '../py/value';

/**
 * Pretty JSON of a Python value that keeps Python's number text (`250.0` stays `250.0`)
 * and the dict order. Strings are JSON-escaped but keep non-ASCII characters readable.
 */
export function pyJson(v: PyValue, indent = 2, depth = 0): string {
  if (v === null || typeof v !== 'object') return dumpsScalar(v, readableStr);
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

type Segment = string | number;

/** A field path as the UI shows it: `items[0].price`, `["odd key"]`; the empty path is the whole record. */
export const pathText = (path: readonly Segment[]): string =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
    .join('')
    .replace(/^\./, '') || WHOLE_RECORD;

export const WHOLE_RECORD = '(whole record)';

/** One line of a pretty-printed record, with the field it belongs to and whether that field is marked. */
export interface RecordLine {
  readonly text: string;
  /** The field path (as `pathText` writes it); a container's closing line carries the container's path. */
  readonly path: string;
  /** The line is at or under one of the marked paths. */
  readonly marked: boolean;
}

const startsWithPath = (path: readonly Segment[], prefix: readonly Segment[]): boolean => prefix.length <= path.length && prefix.every((p, i) => path[i] === p);

/**
 * `pyJson(v)` cut into lines, each with its field path; lines at or under any of `marked` are
 * flagged, so the UI highlights them without reading the text back.
 */
export function pyJsonLines(v: PyValue, marked: readonly (readonly Segment[])[] = [], indent = 2): RecordLine[] {
  const out: RecordLine[] = [];
  const isMarked = (path: readonly Segment[]): boolean => marked.some((m) => startsWithPath(path, m));
  const push = (text: string, path: readonly Segment[]): void => void out.push({ text, path: pathText(path), marked: isMarked(path) });
  const walk = (x: PyValue, path: Segment[], prefix: string, depth: number, comma: string): void => {
    const pad = ' '.repeat(indent * depth);
    if (Array.isArray(x) && x.length > 0) {
      push(`${pad}${prefix}[`, path);
      x.forEach((item, i) => walk(item, [...path, i], '', depth + 1, i < x.length - 1 ? ',' : ''));
      push(`${pad}]${comma}`, path);
      return;
    }
    if (x instanceof Map && x.size > 0) {
      push(`${pad}${prefix}{`, path);
      let i = 0;
      for (const [k, item] of x) {
        i++;
        walk(item, [...path, k], `${pyJson(k)}: `, depth + 1, i < x.size ? ',' : '');
      }
      push(`${pad}}${comma}`, path);
      return;
    }
    push(`${pad}${prefix}${pyJson(x, indent, depth)}${comma}`, path);
  };
  walk(v, [], '', 0, '');
  return out;
}

/** JSON text (tool arguments) pretty-printed the way records are, numbers keeping their text; null if it is not JSON. */
export function prettyJson(text: string): string | null {
  const parsed = tryParseJson(text);
  return parsed.ok ? pyJson(parsed.value) : null;
}
