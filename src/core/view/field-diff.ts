import { create } from 'jsondiffpatch';
import { reprFloat } from '../py/repr';
import type { PyValue } from '../py/value';

export type Path = readonly (string | number)[];

export interface FieldChange {
  /** Path inside the record; array indices are positions on the side that has the value. */
  readonly path: Path;
  /** `added`: only the agent DB has it; `removed`: only the reference has it. */
  readonly kind: 'added' | 'removed' | 'changed' | 'moved';
  readonly agent?: PyValue;
  readonly reference?: PyValue;
  /** Equal numbers that differ only as int vs float (`250` vs `250.0`): τ-bench's hash tells them apart. */
  readonly intVsFloat: boolean;
}

// Numbers travel through jsondiffpatch as tagged strings, so `250` and `250.0` differ.
const TAG = '\u0001py\u0001';
type Plain = null | boolean | string | Plain[] | { [k: string]: Plain };

function toPlain(v: PyValue): Plain {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return `${TAG}i${v.toString()}`;
  if (typeof v === 'number') return `${TAG}f${reprFloat(v)}`;
  if (Array.isArray(v)) return v.map(toPlain);
  const o: { [k: string]: Plain } = Object.create(null) as { [k: string]: Plain };
  for (const [k, x] of v) o[k] = toPlain(x);
  return o;
}

function fromPlain(p: unknown): PyValue {
  if (p === null || typeof p === 'boolean') return p;
  if (typeof p === 'string') {
    if (!p.startsWith(TAG)) return p;
    const body = p.slice(TAG.length + 1);
    if (p[TAG.length] === 'i') return BigInt(body);
    return body === 'nan' ? NaN : body === 'inf' ? Infinity : body === '-inf' ? -Infinity : Number(body);
  }
  if (Array.isArray(p)) return p.map(fromPlain);
  const m = new Map<string, PyValue>();
  for (const [k, x] of Object.entries(p as object)) m.set(k, fromPlain(x));
  return m;
}

const differ = create({ arrays: { detectMove: false } });

function isIntVsFloat(a: PyValue | undefined, b: PyValue | undefined): boolean {
  const num = (x: PyValue | undefined): x is bigint | number => typeof x === 'bigint' || typeof x === 'number';
  return num(a) && num(b) && typeof a !== typeof b && a == b;
}

/**
 * Field-level differences between the agent's and the reference's version of one record,
 * computed with jsondiffpatch on the two records only.
 */
export function fieldDiff(agent: PyValue | undefined, reference: PyValue | undefined): FieldChange[] {
  if (agent === undefined || reference === undefined) {
    if (agent === undefined && reference === undefined) return [];
    return [
      agent === undefined ? { path: [], kind: 'removed', reference: reference!, intVsFloat: false } : { path: [], kind: 'added', agent, intVsFloat: false },
    ];
  }
  const delta = differ.diff(toPlain(reference), toPlain(agent));
  const out: FieldChange[] = [];
  walk(delta, [], out);
  return out;
}

function walk(delta: unknown, path: (string | number)[], out: FieldChange[]): void {
  if (delta === undefined) return;
  if (Array.isArray(delta)) {
    if (delta.length === 1) out.push({ path, kind: 'added', agent: fromPlain(delta[0]), intVsFloat: false });
    else if (delta.length === 2) {
      const reference = fromPlain(delta[0]);
      const agent = fromPlain(delta[1]);
      out.push({ path, kind: 'changed', agent, reference, intVsFloat: isIntVsFloat(agent, reference) });
    } else if (delta.length === 3 && delta[2] === 0) out.push({ path, kind: 'removed', reference: fromPlain(delta[0]), intVsFloat: false });
    else if (delta.length === 3 && delta[2] === 3) out.push({ path, kind: 'moved', intVsFloat: false });
    return;
  }
  const d = delta as Record<string, unknown>;
  const isArray = d._t === 'a';
  const paired = new Set<string>();
  if (isArray)
    for (const [k, sub] of Object.entries(d)) {
      // An element replaced in place comes as "inserted at i" plus "deleted at i": one changed element
      // (and, for two dicts or lists, the fields that differ inside it).
      const gone = d[`_${k}`];
      if (k.startsWith('_') || !isInsert(sub) || !isDelete(gone)) continue;
      paired.add(k).add(`_${k}`);
      const before = gone[0] as Plain;
      const after = sub[0] as Plain;
      const inner =
        typeof before === 'object' && before !== null && typeof after === 'object' && after !== null && Array.isArray(before) === Array.isArray(after);
      if (inner) walk(differ.diff(before, after), [...path, Number(k)], out);
      else {
        const reference = fromPlain(before);
        const agent = fromPlain(after);
        out.push({ path: [...path, Number(k)], kind: 'changed', agent, reference, intVsFloat: isIntVsFloat(agent, reference) });
      }
    }
  for (const [k, sub] of Object.entries(d)) {
    if (k === '_t' || paired.has(k)) continue;
    if (isArray) {
      const removed = k.startsWith('_');
      walk(sub, [...path, Number(removed ? k.slice(1) : k)], out);
    } else walk(sub, [...path, k], out);
  }
}

const isInsert = (x: unknown): x is [unknown] => Array.isArray(x) && x.length === 1;
const isDelete = (x: unknown): x is [unknown, 0, 0] => Array.isArray(x) && x.length === 3 && x[2] === 0;

/** The value at a path, or undefined. */
export function valueAt(v: PyValue | undefined, path: Path): PyValue | undefined {
  let cur = v;
  for (const p of path) {
    if (cur instanceof Map && typeof p === 'string') cur = cur.get(p);
    else if (Array.isArray(cur) && typeof p === 'number') cur = cur[p];
    else return undefined;
  }
  return cur;
}
