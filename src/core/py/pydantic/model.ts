/**
 * A small emulation of pydantic 2 models, enough for τ²-bench's domain databases and tools:
 * field order, defaults, lax validation of Python input, `model_dump()` and `repr()`.
 *
 * Values: the Python values of `core/py/value.ts` (None, bool, int = bigint, float = number, str,
 * list = array, dict = Map) plus model instances (`PydModel`). A field keeps whatever a tool
 * assigns to it later (pydantic does not validate assignment by default).
 */
export type TValue = null | boolean | bigint | number | string | TValue[] | TDict | PydModel;
export type TDict = Map<string, TValue>;

export type FieldType =
  | { readonly kind: 'str' | 'int' | 'float' | 'bool' | 'any' | 'none' }
  | { readonly kind: 'literal'; readonly values: readonly (string | bigint | boolean)[] }
  | { readonly kind: 'list'; readonly item: FieldType }
  | { readonly kind: 'dict'; readonly key: FieldType; readonly value: FieldType }
  | { readonly kind: 'union'; readonly members: readonly FieldType[] }
  | { readonly kind: 'model'; readonly model: () => ModelClass };

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
    if (!this.fields.has(name)) throw new Error(`${this.cls.name} has no field ${name}`);
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
