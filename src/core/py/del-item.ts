import { indexError, keyError, typeError } from './errors';
import { typeName, type PyValue } from './value';

/** `del obj[key]`. */
// Python parity: PyObject_DelItem for dict and list (CPython 3.11 messages).
export function delItem(obj: PyValue, key: PyValue): void {
  if (obj instanceof Map) {
    if (Array.isArray(key) || key instanceof Map) throw typeError(`unhashable type: '${typeName(key)}'`);
    if (typeof key !== 'string' || !obj.has(key)) throw keyError(key);
    obj.delete(key);
    return;
  }
  if (Array.isArray(obj)) {
    if (typeof key !== 'bigint' && typeof key !== 'boolean') throw typeError(`list indices must be integers or slices, not ${typeName(key)}`);
    let i = Number(typeof key === 'boolean' ? (key ? 1n : 0n) : key);
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw indexError('list assignment index out of range');
    obj.splice(i, 1);
    return;
  }
  if (typeof obj === 'string') throw typeError("'str' object doesn't support item deletion");
  throw typeError(`'${typeName(obj)}' object does not support item deletion`);
}
