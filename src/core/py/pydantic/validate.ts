import { PyException } from '../errors';
import { reprStr } from '../repr';
import { deepCopyValue, EnumMember, PyDate, PyDateTime, PydModel, type FieldType, type ModelClass, type TDict, type TValue } from './model';
import { boolFromStr, floatFromStr, floatIntFits, intFromStr } from './lax-numbers';
import { tRepr, tTypeName } from './repr';

/** The pydantic version named in a ValidationError's help URLs (parity masks it, see README). */
export const PYDANTIC_URL_VERSION = '2.13';

/** One line of a pydantic ValidationError: where, its type, message and the input found there. */
export interface LineError {
  readonly loc: readonly (string | number)[];
  readonly type: string;
  readonly msg: string;
  readonly input: TValue;
}

/**
 * How the input reached pydantic: `python` (`model_validate` of Python values: τ²'s run folders, read with
 * `json.loads` first) or `json` (`model_validate_json`: a one-file results file). They differ in a few
 * messages only (`Input should be an object` for a dict or a model, `a valid array` for a list).
 */
export type InputMode = 'python' | 'json';
let mode: InputMode = 'python';
/**
 * Only the errors are wanted (`validationErrors`): a value that validates is not built (no copies of lists, dicts and
 * models, no defaults filled in). The errors are the same either way: no validator here reads a built value.
 */
let errorsOnly = false;
/**
 * Only whether the input validates is wanted (`validationErrors`' first pass): the first error ends the walk, and
 * no error is built (`REFUSED` stands for any). Implies `errorsOnly`.
 */
let checkOnly = false;

class Invalid {
  constructor(readonly errors: LineError[]) {}
}

/** Any error, in `checkOnly` mode (its errors are not said). */
const REFUSED = new Invalid([]);
/** A model that validates, in `checkOnly` mode (no value is built). */
const CHECKED = new PydModel({ name: 'checked', fields: [], extra: 'ignore' }, new Map());

/** A union's members other than None, found once per union (validating an Optional field made this list each time). */
const NOT_NONE = new WeakMap<FieldType, readonly FieldType[]>();
function notNone(union: Extract<FieldType, { kind: 'union' }>): readonly FieldType[] {
  let others = NOT_NONE.get(union);
  if (others === undefined) NOT_NONE.set(union, (others = union.members.filter((m) => m.kind !== 'none')));
  return others;
}

const fail = (type: string, msg: string, input: TValue): Invalid => (checkOnly ? REFUSED : new Invalid([{ loc: [], type, msg, input }]));

// Python parity: pydantic-core's truncated input_value (repr over 50 characters: first 25, '...', last 24).
function inputRepr(v: TValue): string {
  const r = tRepr(v);
  const cps = [...r];
  return cps.length > 50 ? `${cps.slice(0, 25).join('')}...${cps.slice(-24).join('')}` : r;
}

/** A line error's message as ValidationError prints it: `msg [type=…, input_value=…, input_type=…]`. */
// Python parity: pydantic_core.ValidationError.__str__ (one error, without its location and help URL).
export const lineErrorText = (e: LineError): string => `${e.msg} [type=${e.type}, input_value=${inputRepr(e.input)}, input_type=${tTypeName(e.input)}]`;

// Python parity: pydantic_core.ValidationError.__str__.
function errorText(title: string, errors: readonly LineError[]): string {
  const lines = [`${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${title}`];
  for (const e of errors) {
    if (e.loc.length > 0) lines.push(e.loc.join('.'));
    lines.push(`  ${lineErrorText(e)}`);
    lines.push(`    For further information visit https://errors.pydantic.dev/${PYDANTIC_URL_VERSION}/v/${e.type}`);
  }
  return lines.join('\n');
}

// Python parity: pydantic 2 lax-mode validation of Python input (the types τ²'s models use).
function validateValue(type: FieldType, v: TValue): TValue | Invalid {
  switch (type.kind) {
    case 'any':
      return v;
    case 'none':
      return v === null ? null : fail('none_required', 'Input should be None', v);
    case 'str':
      return typeof v === 'string' ? v : fail('string_type', 'Input should be a valid string', v);
    case 'int':
      if (typeof v === 'bigint') return v;
      if (typeof v === 'boolean') return v ? 1n : 0n;
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) return fail('finite_number', 'Input should be a finite number', v);
        if (!Number.isInteger(v)) return fail('int_from_float', 'Input should be a valid integer, got a number with a fractional part', v);
        return floatIntFits(v) ? BigInt(v) : fail('int_parsing_size', 'Unable to parse input string as an integer, exceeded maximum size', v);
      }
      if (typeof v === 'string') return intFromStr(v) ?? fail('int_parsing', 'Input should be a valid integer, unable to parse string as an integer', v);
      return fail('int_type', 'Input should be a valid integer', v);
    case 'float':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'string') return floatFromStr(v) ?? fail('float_parsing', 'Input should be a valid number, unable to parse string as a number', v);
      return fail('float_type', 'Input should be a valid number', v);
    case 'bool': {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'bigint' && (v === 0n || v === 1n)) return v === 1n;
      if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
      const parsing = (): Invalid => fail('bool_parsing', 'Input should be a valid boolean, unable to interpret input', v);
      if (typeof v === 'string') return boolFromStr(v) ?? parsing();
      // Python parity: pydantic-core reads an int within i64 (or a float that is one) as a bool candidate (bool_parsing); anything else is no bool at all.
      const i64 = (typeof v === 'bigint' && v >= -(2n ** 63n) && v < 2n ** 63n) || (typeof v === 'number' && Number.isInteger(v) && floatIntFits(v));
      return i64 ? parsing() : fail('bool_type', 'Input should be a valid boolean', v);
    }
    case 'literal': {
      if (type.values.some((x) => x === v)) return v;
      const shown = type.values.map((x) => (typeof x === 'string' ? reprStr(x) : typeof x === 'boolean' ? (x ? 'True' : 'False') : x.toString()));
      const expected = shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
      return fail('literal_error', `Input should be ${expected}`, v);
    }
    case 'list': {
      if (!Array.isArray(v)) return fail('list_type', mode === 'json' ? 'Input should be a valid array' : 'Input should be a valid list', v);
      if (checkOnly) {
        // (Anything is an Any: a list of them is not walked.)
        if (type.item.kind !== 'any') for (const x of v) if (validateValue(type.item, x) instanceof Invalid) return REFUSED;
        return v;
      }
      const out: TValue[] = [];
      const errors: LineError[] = [];
      v.forEach((x, i) => {
        const r = validateValue(type.item, x);
        if (r instanceof Invalid) errors.push(...r.errors.map((e) => ({ ...e, loc: [i, ...e.loc] })));
        else if (!errorsOnly) out.push(r);
      });
      return errors.length > 0 ? new Invalid(errors) : errorsOnly ? v : out;
    }
    case 'dict': {
      if (!(v instanceof Map)) return fail('dict_type', mode === 'json' ? 'Input should be an object' : 'Input should be a valid dictionary', v);
      if (checkOnly) {
        // The usual `dict[str, Any]` (a call's arguments) without a call per entry: a str key is a str, anything an Any.
        const strKeys = type.key.kind === 'str';
        const anyValues = type.value.kind === 'any';
        for (const [k, x] of v) {
          if (strKeys ? typeof k !== 'string' : validateValue(type.key, k) instanceof Invalid) return REFUSED;
          if (!anyValues && validateValue(type.value, x) instanceof Invalid) return REFUSED;
        }
        return v;
      }
      const out: TDict = new Map();
      const errors: LineError[] = [];
      for (const [k, x] of v) {
        const kr = validateValue(type.key, k);
        if (kr instanceof Invalid) errors.push(...kr.errors.map((e) => ({ ...e, loc: [k, '[key]', ...e.loc] })));
        const r = validateValue(type.value, x);
        if (r instanceof Invalid) errors.push(...r.errors.map((e) => ({ ...e, loc: [k, ...e.loc] })));
        else if (!(kr instanceof Invalid) && !errorsOnly) out.set(kr instanceof EnumMember ? kr.value : (kr as string), r);
      }
      return errors.length > 0 ? new Invalid(errors) : errorsOnly ? v : out;
    }
    case 'union': {
      // Optional[T] (T | None): None passes, anything else is T's business (errors without a member tag).
      const others = notNone(type);
      if (v === null && others.length < type.members.length) return null;
      if (others.length === 1) return validateValue(others[0]!, v);
      // Python parity: smart-mode union — the first member that validates (strict matches are tried first
      // by pydantic; for the member sets used here the first success is the same), else every member's errors.
      const errors: LineError[] = [];
      for (const m of type.members) {
        const r = validateValue(m, v);
        if (!(r instanceof Invalid)) return r;
        if (checkOnly) continue;
        errors.push(...r.errors.map((e) => ({ ...e, loc: [memberTag(m), ...e.loc] })));
      }
      return checkOnly ? REFUSED : new Invalid(errors);
    }
    case 'model':
      return validateModel(type.model(), v);
    case 'enum': {
      if (v instanceof EnumMember && v.cls === type.enum) return v;
      const m = typeof v === 'string' ? type.enum.of(v) : v instanceof EnumMember ? type.enum.of(v.value) : undefined;
      if (m) return m;
      const shown = type.enum.members.map((x) => reprStr(x.value));
      return fail('enum', `Input should be ${shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`}`, v);
    }
    case 'date':
      return validateDate(v, false);
    case 'datetime':
      return validateDate(v, true);
  }
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

const daysIn = (y: number, m: number): number => (m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

// Python parity: pydantic's date / datetime from an ISO string (the forms τ²'s data uses), or an instance;
// speedate's range checks (a datetime with a time out of range is read as a date with extra characters).
function validateDate(v: TValue, withTime: boolean): TValue | Invalid {
  if (withTime && v instanceof PyDateTime) return v;
  if (!withTime && v instanceof PyDate) return v;
  if (withTime && v instanceof PyDate) return new PyDateTime(v.year, v.month, v.day, 0, 0, 0);
  const m = typeof v === 'string' ? ISO.exec(v) : null;
  if (m === null) return withTime ? fail('datetime_type', 'Input should be a valid datetime', v) : fail('date_type', 'Input should be a valid date', v);
  const [y, mo, d, h, mi, sec] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as [number, number, number, number, number, number];
  const parsing = (detail: string): Invalid =>
    withTime
      ? fail('datetime_from_date_parsing', `Input should be a valid datetime or date, ${detail}`, v)
      : fail('date_from_datetime_parsing', `Input should be a valid date or datetime, ${detail}`, v);
  if (mo < 1 || mo > 12) return parsing('month value is outside expected range of 1-12');
  if (d < 1 || d > daysIn(y, mo)) return parsing('day value is outside expected range');
  const badTime =
    h > 23
      ? 'hour value is outside expected range of 0-23'
      : mi > 59
        ? 'minute value is outside expected range of 0-59'
        : sec > 59
          ? 'second value is outside expected range of 0-59'
          : null;
  if (badTime !== null) return parsing(withTime ? 'unexpected extra characters at the end of the input' : badTime);
  if (!withTime)
    return h === 0 && mi === 0 && sec === 0
      ? new PyDate(y, mo, d)
      : fail('date_from_datetime_inexact', 'Datetimes provided to dates should have zero time - e.g. be exact dates', v);
  return new PyDateTime(y, mo, d, h, mi, sec);
}

function memberTag(m: FieldType): string {
  switch (m.kind) {
    case 'model':
      return m.model().name;
    case 'literal':
      return `literal[${m.values.map((x) => (typeof x === 'string' ? reprStr(x) : String(x))).join(',')}]`;
    case 'list':
      return `list[${memberTag(m.item)}]`;
    case 'dict':
      return `dict[${memberTag(m.key)},${memberTag(m.value)}]`;
    default:
      return m.kind;
  }
}

function validateModel(cls: ModelClass, v: TValue): PydModel | Invalid {
  // Python parity: an instance of the model is taken as it is (revalidate_instances='never').
  if (v instanceof PydModel && v.cls === cls) return v;
  if (!(v instanceof Map))
    return fail('model_type', mode === 'json' ? 'Input should be an object' : `Input should be a valid dictionary or instance of ${cls.name}`, v);
  if (checkOnly) return modelValidates(cls, v) ? CHECKED : REFUSED;
  const out = new Map<string, TValue>();
  const errors: LineError[] = [];
  for (const f of cls.fields) {
    if (!v.has(f.name)) {
      if (f.default === undefined) errors.push({ loc: [f.name], type: 'missing', msg: 'Field required', input: v });
      else if (!errorsOnly) out.set(f.name, 'value' in f.default ? deepCopyValue(f.default.value) : f.default.factory());
      continue;
    }
    const r = validateValue(f.type, v.get(f.name)!);
    if (r instanceof Invalid) errors.push(...r.errors.map((e) => ({ ...e, loc: [f.name, ...e.loc] })));
    else if (!errorsOnly) out.set(f.name, r);
  }
  if (cls.extra === 'forbid') {
    const names = new Set(cls.fields.map((f) => f.name));
    for (const [k, x] of v) if (!names.has(k)) errors.push({ loc: [k], type: 'extra_forbidden', msg: 'Extra inputs are not permitted', input: x });
  }
  return errors.length > 0 ? new Invalid(errors) : new PydModel(cls, out);
}

/** `validateModel` in `checkOnly` mode: whether `v` (a dict) validates, to its first error. */
function modelValidates(cls: ModelClass, v: TDict): boolean {
  for (const f of cls.fields) {
    // One lookup per field (a value is never undefined: absent is).
    const x = v.get(f.name);
    if (x === undefined) {
      if (f.default === undefined) return false;
      continue;
    }
    if (f.type.kind !== 'any' && validateValue(f.type, x) instanceof Invalid) return false;
  }
  if (cls.extra !== 'forbid') return true;
  const names = fieldNames(cls);
  for (const k of v.keys()) if (!names.has(k as string)) return false;
  return true;
}

const FIELD_NAMES = new WeakMap<ModelClass, ReadonlySet<string>>();
const fieldNames = (cls: ModelClass): ReadonlySet<string> => {
  let names = FIELD_NAMES.get(cls);
  if (names === undefined) FIELD_NAMES.set(cls, (names = new Set(cls.fields.map((f) => f.name))));
  return names;
};

/**
 * pydantic `Model.model_validate(input)` / `Model(**kwargs)`: the validated instance, or a
 * `PyException('ValidationError')` whose text is `str()` of pydantic's error.
 */
export function validate(cls: ModelClass, input: TValue): PydModel {
  const r = validateModel(cls, input);
  if (r instanceof Invalid) throw new PyException('ValidationError', errorText(cls.name, r.errors));
  return r;
}

/**
 * Every line error pydantic reports validating `input` as `cls` (empty when it validates), in pydantic's
 * order, each with its location from the model's root.
 */
export function validationErrors(cls: ModelClass, input: TValue, inputMode: InputMode = 'python'): readonly LineError[] {
  const before = [mode, errorsOnly, checkOnly] as const;
  mode = inputMode;
  errorsOnly = true;
  try {
    // Most inputs validate: a first pass that only says whether (no error built, the walk ends at the first) is
    // enough for those, and a refused input is walked again for every error, as before.
    checkOnly = true;
    if (!(validateModel(cls, input) instanceof Invalid)) return [];
    checkOnly = false;
    const r = validateModel(cls, input);
    return r instanceof Invalid ? r.errors : [];
  } finally {
    [mode, errorsOnly, checkOnly] = before;
  }
}

/** `Model(**kwargs)`: keyword arguments given as entries. */
export const create = (cls: ModelClass, kwargs: Record<string, TValue>): PydModel => validate(cls, new Map(Object.entries(kwargs)));
