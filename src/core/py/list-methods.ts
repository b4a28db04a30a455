import { attributeError } from './errors';
import { iterate } from './ops';
import { typeName, type PyValue } from './value';

function asList(v: PyValue, method: string): PyValue[] {
  if (Array.isArray(v)) return v;
  throw attributeError(`'${typeName(v)}' object has no attribute '${method}'`);
}

/** `lst.append(x)`. */
export function listAppend(lst: PyValue, x: PyValue): void {
  asList(lst, 'append').push(x);
}

/** `lst.extend(xs)`. */
export function listExtend(lst: PyValue, xs: PyValue): void {
  const target = asList(lst, 'extend');
  target.push(...iterate(xs));
}
