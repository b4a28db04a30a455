import { iterate } from './ops';
import type { PyValue } from './value';

/** `zip(a, b)` materialised: pairs up to the shorter iterable. */
export function pyZip(a: PyValue, b: PyValue): [PyValue, PyValue][] {
  const xs = iterate(a);
  const ys = iterate(b);
  const n = Math.min(xs.length, ys.length);
  const out: [PyValue, PyValue][] = [];
  for (let i = 0; i < n; i++) out.push([xs[i]!, ys[i]!]);
  return out;
}
