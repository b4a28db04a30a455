import { reprFloat, reprStr } from '../repr';
import { EnumMember, PyDate, PyDateTime, PydModel, type TValue } from './model';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

// Python parity: date.__str__ / datetime.__str__ (isoformat with a space).
export const dateStr = (d: PyDate | PyDateTime, sep = ' '): string =>
  `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}${d instanceof PyDateTime ? `${sep}${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}` : ''}`;

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
  // Python parity: Enum.__repr__, date.__repr__, datetime.__repr__ (trailing zero seconds dropped).
  if (v instanceof EnumMember) return `<${v.cls.name}.${v.name}: ${reprStr(v.value)}>`;
  if (v instanceof PyDate) return `datetime.date(${v.year}, ${v.month}, ${v.day})`;
  if (v instanceof PyDateTime) return `datetime.datetime(${[v.year, v.month, v.day, v.hour, v.minute, ...(v.second ? [v.second] : [])].join(', ')})`;
  if (v instanceof PydModel) return `${v.cls.name}(${[...v.fields].map(([k, x]) => `${k}=${tRepr(x)}`).join(', ')})`;
  return `{${[...v].map(([k, x]) => `${reprStr(k)}: ${tRepr(x)}`).join(', ')}}`;
}

// Python parity: str() / f-string — a str is itself, a str Enum member `Cls.NAME` (3.11), a date its isoformat, else repr.
export const tStr = (v: TValue): string =>
  typeof v === 'string' ? v : v instanceof EnumMember ? `${v.cls.name}.${v.name}` : v instanceof PyDate || v instanceof PyDateTime ? dateStr(v) : tRepr(v);

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
  if (v instanceof PydModel || v instanceof EnumMember) return v.cls.name;
  if (v instanceof PyDate) return 'date';
  if (v instanceof PyDateTime) return 'datetime';
  return 'dict';
}
