import { PyException } from '../errors';

/**
 * A small emulation of pydantic 2 models, enough for τ²-bench's domain databases and tools:
 * field order, defaults, lax validation of Python input, `model_dump()` and `repr()`.
 *
 * Values: the Python values of `core/py/value.ts` (None, bool, int = bigint, float = number, str,
 * list = array, dict = Map) plus model instances (`PydModel`). A field keeps whatever a tool
 * assigns to it later (pydantic does not validate assignment by default).
 */
export type TValue = null | boolean | bigint | number | string | TValue[] | TDict | PydModel | EnumMember | PyDate | PyDateTime;

/** A member of a `str` Enum: equal to its value, printed by JSON as its value, by repr as `<Cls.NAME: 'value'>`. */
export class EnumMember {
  constructor(
    readonly cls: EnumClass,
    readonly name: string,
    readonly value: string,
  ) {}
}

/** A `class X(str, Enum)`: its members in declaration order. */
export class EnumClass {
  readonly members: readonly EnumMember[];
  private readonly byValue: ReadonlyMap<string, EnumMember>;
  private readonly byName: ReadonlyMap<string, EnumMember>;
  constructor(
    readonly name: string,
    members: readonly (readonly [string, string])[],
  ) {
    this.members = members.map(([n, v]) => new EnumMember(this, n, v));
    this.byValue = new Map(this.members.map((m) => [m.value, m]));
    this.byName = new Map(this.members.map((m) => [m.name, m]));
  }
  /** `Cls(value)`: the member with that value, or undefined. */
  of(value: string): EnumMember | undefined {
    return this.byValue.get(value);
  }
  /** `Cls.NAME`. */
  get(name: string): EnumMember {
    const m = this.byName.get(name);
    if (m === undefined) throw new Error(`${this.name} has no member ${name}`);
    return m;
  }
}

/** `datetime.date`. */
export class PyDate {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {}
}

/** `datetime.datetime` (naive, whole seconds). */
export class PyDateTime {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
  ) {}
}
export type TDict = Map<string, TValue>;

export type FieldType =
  | { readonly kind: 'str' | 'int' | 'float' | 'bool' | 'any' | 'none' }
  | { readonly kind: 'literal'; readonly values: readonly (string | bigint | boolean)[] }
  | { readonly kind: 'list'; readonly item: FieldType }
  | { readonly kind: 'dict'; readonly key: FieldType; readonly value: FieldType }
  | { readonly kind: 'union'; readonly members: readonly FieldType[] }
  | { readonly kind: 'model'; readonly model: () => ModelClass }
  | { readonly kind: 'enum'; readonly enum: EnumClass }
  | { readonly kind: 'date' | 'datetime' };

/** Field type builders: `t.str`, `t.list(t.int)`, `t.optional(t.model(() => User))`, … */
export const t = {
  str: { kind: 'str' } as FieldType,
  int: { kind: 'int' } as FieldType,
  float: { kind: 'float' } as FieldType,
  bool: { kind: 'bool' } as FieldType,
  any: { kind: 'any' } as FieldType,
  none: { kind: 'none' } as FieldType,
  literal: (...values: (string | bigint | boolean)[]): FieldType => ({ kind: 'literal', values }),
  list: (item: FieldType): FieldType => ({ kind: 'list', item }),
  dict: (key: FieldType, value: FieldType): FieldType => ({ kind: 'dict', key, value }),
  union: (...members: FieldType[]): FieldType => ({ kind: 'union', members }),
  /** `Optional[T]` is `Union[T, None]`. */
  optional: (inner: FieldType): FieldType => ({ kind: 'union', members: [inner, { kind: 'none' }] }),
  model: (model: () => ModelClass): FieldType => ({ kind: 'model', model }),
  enum: (e: EnumClass): FieldType => ({ kind: 'enum', enum: e }),
  date: { kind: 'date' } as FieldType,
  datetime: { kind: 'datetime' } as FieldType,
};

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  /** A default value (copied for each instance, as pydantic copies mutable defaults), or a factory. */
  readonly default?: { readonly value: TValue } | { readonly factory: () => TValue };
}

export const field = (name: string, type: FieldType, options: { default?: TValue; factory?: () => TValue } = {}): FieldSpec => ({
  name,
  type,
  ...('default' in options ? { default: { value: options.default! } } : options.factory ? { default: { factory: options.factory } } : {}),
});

export interface ModelClass {
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  /** pydantic `extra`: `ignore` (BaseModel's default) or `forbid` (τ²'s `BaseModelNoExtra`, its `DB`). */
  readonly extra: 'ignore' | 'forbid';
}

/** An instance of a model: its class and its field values in declared order. */
export class PydModel {
  constructor(
    readonly cls: ModelClass,
    readonly fields: Map<string, TValue>,
  ) {}

  get(name: string): TValue {
    // Python parity: getattr on a model without that field — AttributeError (τ²'s set_state can hand the agent's
    // toolkit the user's DB, whose model has none of the agent's tables).
    if (!this.fields.has(name)) throw new PyException('AttributeError', `'${this.cls.name}' object has no attribute '${name}'`);
    return this.fields.get(name)!;
  }

  set(name: string, value: TValue): void {
    this.fields.set(name, value);
  }
}

export function defineModel(name: string, fields: readonly FieldSpec[], options: { extra?: 'ignore' | 'forbid' } = {}): ModelClass {
  return { name, fields, extra: options.extra ?? 'ignore' };
}

export const isModel = (v: TValue | undefined): v is PydModel => v instanceof PydModel;

/** `copy.deepcopy` of a value (models, dicts and lists copied; scalars shared). */
export function deepCopyValue<T extends TValue>(v: T): T {
  const x: TValue = v;
  if (x instanceof PydModel) {
    const out = new Map<string, TValue>();
    for (const [k, y] of x.fields) out.set(k, deepCopyValue(y));
    return new PydModel(x.cls, out) as T;
  }
  if (x instanceof Map) {
    const out: TDict = new Map();
    for (const [k, y] of x) out.set(k, deepCopyValue(y));
    return out as T;
  }
  if (Array.isArray(x)) return x.map((y) => deepCopyValue(y)) as T;
  return v;
}
