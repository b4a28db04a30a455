import { reprFloat, reprStr } from '../repr';
import { PydModel, type TValue } from './model';

// Python parity: repr() of JSON-shaped values and pydantic models (BaseModel.__repr__: `Name(a=1, b='x')`).
export function tRepr(v: TValue): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return reprFloat(v);
    case 'string':
      return reprStr(v);
  }
  if (Array.isArray(v)) return `[${v.map(tRepr).join(', ')}]`;
  if (v instanceof PydModel) return `${v.cls.name}(${[...v.fields].map(([k, x]) => `${k}=${tRepr(x)}`).join(', ')})`;
  return `{${[...v].map(([k, x]) => `${reprStr(k)}: ${tRepr(x)}`).join(', ')}}`;
}

// Python parity: str() — a str is itself, everything else its repr (for these values).
export const tStr = (v: TValue): string => (typeof v === 'string' ? v : tRepr(v));

// Python parity: type(v).__name__.
export function tTypeName(v: TValue): string {
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
  }
  if (Array.isArray(v)) return 'list';
  if (v instanceof PydModel) return v.cls.name;
  return 'dict';
}
