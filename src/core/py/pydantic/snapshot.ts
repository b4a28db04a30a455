/**
 * A validated value (models, dicts, lists, Python scalars) as plain JSON and back, for a cache of validated DBs
 * kept between processes: read back with the engine's `JSON.parse` and one walk, ~5× faster than parsing the data
 * file exactly and validating it again. Every value keeps its Python type: an int stays an int (bigint), a float a
 * float (-0.0, nan and inf included), a model its class, a dict its key order, an Enum member its class.
 *
 * The JSON: null, booleans, strings and finite floats (not -0.0) as themselves; everything else an array whose first
 * element says what it is (`TAG`). Models and Enum classes are numbered in the order `schemaOf` meets them from the
 * root model, so a snapshot is read back only with the same classes (`decode` checks every tag, index and field count,
 * and throws `SnapshotError` on anything else).
 */
import { EnumClass, EnumMember, PyDate, PyDateTime, PydModel, type FieldType, type ModelClass, type TValue } from './model';
import { LazyDict, RecordSource } from './lazy-dict';

export class SnapshotError extends Error {}

const TAG = { list: 0, dict: 1, model: 2, modelKeys: 3, int: 4, bigInt: 5, float: 6, enum: 7, date: 8, datetime: 9, lazyDict: 10 } as const;

/** A root model's dict field of at least this many records is encoded record by record, to be decoded lazily (`LazyDict`). */
const LAZY_FROM = 16;

/**
 * Where `encode` puts the records of the root's tables it encodes one by one (`lazy`): each record's JSON appended to
 * `parts`, `length` the text's length so far (UTF-16 units); the table itself is `[TAG.lazyDict, start, key, end, …]`.
 */
export interface LazyRecords {
  readonly parts: string[];
  length: number;
}

/** The model and Enum classes reachable from the roots' fields, numbered in the order met. */
export interface SnapshotSchema {
  readonly models: readonly ModelClass[];
  readonly enums: readonly EnumClass[];
  /** A short text naming every class and field in order (a snapshot of other classes is not read back). */
  readonly signature: string;
}

export function schemaOf(roots: readonly ModelClass[]): SnapshotSchema {
  const models: ModelClass[] = [];
  const enums: EnumClass[] = [];
  const type = (ft: FieldType): void => {
    switch (ft.kind) {
      case 'model':
        model(ft.model());
        break;
      case 'list':
        type(ft.item);
        break;
      case 'dict':
        type(ft.key);
        type(ft.value);
        break;
      case 'union':
        ft.members.forEach(type);
        break;
      case 'enum':
        if (!enums.includes(ft.enum)) enums.push(ft.enum);
        break;
      default:
    }
  };
  const model = (m: ModelClass): void => {
    if (models.includes(m)) return;
    models.push(m);
    for (const f of m.fields) type(f.type);
  };
  roots.forEach(model);
  const signature = [
    ...models.map((m) => `${m.name}(${m.fields.map((f) => f.name).join(',')})`),
    ...enums.map((e) => `${e.name}[${e.members.map((x) => x.name).join(',')}]`),
  ].join(';');
  return { models, enums, signature };
}

const sameKeys = (fields: Map<string, TValue>, cls: ModelClass): boolean => {
  if (fields.size !== cls.fields.length) return false;
  let i = 0;
  for (const k of fields.keys()) if (k !== cls.fields[i++]!.name) return false;
  return true;
};

/**
 * `v` as plain JSON-able data (see the module comment); throws `SnapshotError` on a class the schema does not know.
 * With `lazy`, each dict field of the root model that holds records (models) only, `LAZY_FROM` or more, is encoded
 * record by record into `lazy`'s text, and `decode` given that text makes it a `LazyDict`.
 */
export function encode(v: TValue, schema: SnapshotSchema, lazy?: LazyRecords): unknown {
  const records = (m: Map<string, TValue>): unknown[] => {
    const out: unknown[] = [TAG.lazyDict, lazy!.length];
    for (const [k, y] of m) {
      const text = JSON.stringify(walk(y));
      lazy!.parts.push(text);
      lazy!.length += text.length;
      out.push(k, lazy!.length);
    }
    return out;
  };
  const isTable = (x: TValue): x is Map<string, TValue> => {
    if (!(x instanceof Map) || x.size < LAZY_FROM) return false;
    for (const y of x.values()) if (!(y instanceof PydModel)) return false;
    return true;
  };
  const walk = (x: TValue, root = false): unknown => {
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
    if (typeof x === 'number') {
      if (Number.isFinite(x) && !Object.is(x, -0)) return x;
      return [TAG.float, Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : '-0'];
    }
    if (typeof x === 'bigint')
      return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? [TAG.int, Number(x)] : [TAG.bigInt, String(x)];
    if (Array.isArray(x)) {
      const out: unknown[] = [TAG.list];
      for (const y of x) out.push(walk(y));
      return out;
    }
    if (x instanceof Map) {
      const out: unknown[] = [TAG.dict];
      for (const [k, y] of x) out.push(k, walk(y));
      return out;
    }
    if (x instanceof PydModel) {
      const i = schema.models.indexOf(x.cls);
      if (i < 0) throw new SnapshotError(`model ${x.cls.name} is not in the schema`);
      if (sameKeys(x.fields, x.cls)) {
        const out: unknown[] = [TAG.model, i];
        for (const y of x.fields.values()) out.push(root && lazy !== undefined && isTable(y) ? records(y) : walk(y));
        return out;
      }
      const out: unknown[] = [TAG.modelKeys, i];
      for (const [k, y] of x.fields) out.push(k, walk(y));
      return out;
    }
    if (x instanceof EnumMember) {
      const i = schema.enums.indexOf(x.cls);
      if (i < 0) throw new SnapshotError(`Enum ${x.cls.name} is not in the schema`);
      return [TAG.enum, i, x.name];
    }
    if (x instanceof PyDateTime) return [TAG.datetime, x.year, x.month, x.day, x.hour, x.minute, x.second];
    if (x instanceof PyDate) return [TAG.date, x.year, x.month, x.day];
    throw new SnapshotError(`a value of no Python type: ${typeof x}`);
  };
  return walk(v, true);
}

const bad = (what: string): never => {
  throw new SnapshotError(`damaged snapshot: ${what}`);
};
const whole = (x: unknown): number => (typeof x === 'number' && Number.isInteger(x) ? x : bad('not a whole number'));

/**
 * The value `encode` made `v` from (new objects each time); throws `SnapshotError` on anything `encode` does not make.
 * `records`: the text `encode`'s `lazy` was given (its tables become `LazyDict`s, each record checked as it is decoded).
 */
export function decode(v: unknown, schema: SnapshotSchema, records?: string): TValue {
  const names = schema.models.map((m) => m.fields.map((f) => f.name));
  const lazyDict = (x: unknown[]): LazyDict => {
    const n = x.length;
    if (records === undefined || n % 2 !== 0) bad('a lazy dict');
    const keys: string[] = [];
    const ends: number[] = [whole(x[1])];
    for (let i = 2; i < n; i += 2) {
      keys.push(typeof x[i] === 'string' ? (x[i] as string) : bad('a dict key that is no string'));
      const end = whole(x[i + 1]);
      if (!(end >= ends[ends.length - 1]! && end <= records!.length)) bad('a record out of place');
      ends.push(end);
    }
    if (ends[0]! < 0) bad('a record out of place');
    const source = new RecordSource(keys.length, (slot) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(records!.slice(ends[slot]!, ends[slot + 1]!));
      } catch {
        return bad(`record ${keys[slot]!} is not JSON`);
      }
      return walk(parsed);
    });
    return LazyDict.of(keys, source);
  };
  const walk = (x: unknown): TValue => {
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
    if (typeof x === 'number') return Number.isFinite(x) ? x : bad('a number JSON cannot hold');
    if (!Array.isArray(x) || x.length === 0) return bad('neither a scalar nor a tagged array');
    const n = x.length;
    switch (x[0]) {
      case TAG.list: {
        const out: TValue[] = new Array<TValue>(n - 1);
        for (let i = 1; i < n; i++) out[i - 1] = walk(x[i]);
        return out;
      }
      case TAG.dict: {
        if (n % 2 !== 1) bad('a dict with a key and no value');
        const out = new Map<string, TValue>();
        for (let i = 1; i < n; i += 2) out.set(typeof x[i] === 'string' ? (x[i] as string) : bad('a dict key that is no string'), walk(x[i + 1]));
        return out;
      }
      case TAG.model: {
        const i = whole(x[1]);
        const cls = schema.models[i] ?? bad('a model class out of range');
        const ns = names[i]!;
        if (n - 2 !== ns.length) bad(`${cls.name} with ${n - 2} fields, not ${ns.length}`);
        const fields = new Map<string, TValue>();
        for (let j = 2; j < n; j++) fields.set(ns[j - 2]!, walk(x[j]));
        return new PydModel(cls, fields);
      }
      case TAG.modelKeys: {
        const cls = schema.models[whole(x[1])] ?? bad('a model class out of range');
        if (n % 2 !== 0) bad('a model field with no value');
        const fields = new Map<string, TValue>();
        for (let j = 2; j < n; j += 2) fields.set(typeof x[j] === 'string' ? (x[j] as string) : bad('a field name that is no string'), walk(x[j + 1]));
        return new PydModel(cls, fields);
      }
      case TAG.int:
        return n === 2 && Number.isSafeInteger(x[1]) ? BigInt(x[1] as number) : bad('an int');
      case TAG.bigInt:
        return n === 2 && typeof x[1] === 'string' && /^-?\d+$/.test(x[1]) ? BigInt(x[1]) : bad('an int');
      case TAG.float: {
        const f = n === 2 ? ({ nan: NaN, inf: Infinity, '-inf': -Infinity, '-0': -0 } as Record<string, number>)[String(x[1])] : undefined;
        return f ?? bad('a float');
      }
      case TAG.enum: {
        const e = schema.enums[whole(x[1])] ?? bad('an Enum class out of range');
        return (n === 3 && e.members.find((m) => m.name === x[2])) || bad(`no member ${String(x[2])} of ${e.name}`);
      }
      case TAG.date:
        return n === 4 ? new PyDate(whole(x[1]), whole(x[2]), whole(x[3])) : bad('a date');
      case TAG.datetime:
        return n === 7 ? new PyDateTime(whole(x[1]), whole(x[2]), whole(x[3]), whole(x[4]), whole(x[5]), whole(x[6])) : bad('a datetime');
      case TAG.lazyDict:
        return lazyDict(x);
      default:
        return bad(`tag ${String(x[0])}`);
    }
  };
  return walk(v);
}
