/** Pieces every banking_knowledge tool file uses: tool definitions, argument access, table membership. */
import { PyException } from '../../../../py/errors';
import { add, eq, ge, gt, le, lt, sub } from '../../../../py/ops';
import { tTypeName, type PydModel, type TDict, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';
import type { ToolDef, ToolType, Toolkit } from '../toolkit';
import { ownRow } from './copy';
import { data } from './db-query';
import { dictKey, float, get, s, strptime, title, truthy, typeError, type Stamp } from './py';

export type Args = ReadonlyMap<string, TValue>;

export const pv = (x: TValue): PyValue => x as PyValue;
export const v = (a: Args, n: string): TValue => a.get(n)!;
export const not = (x: TValue): boolean => !truthy(x);
export const lte = (a: TValue, b: TValue): boolean => le(pv(a), pv(b));
export const less = (a: TValue, b: TValue): boolean => lt(pv(a), pv(b));
export const more = (a: TValue, b: TValue): boolean => gt(pv(a), pv(b));
export const atLeast = (a: TValue, b: TValue): boolean => ge(pv(a), pv(b));
export const minus = (a: TValue, b: TValue): TValue => sub(pv(a), pv(b)) as TValue;
export const plus = (a: TValue, b: TValue): TValue => add(pv(a), pv(b)) as TValue;
export const same = (a: TValue, b: TValue): boolean => eq(pv(a), pv(b));
export const tidy = (x: TValue): string => title(s(x).split('_').join(' '));
export const isNone = (x: TValue): boolean => x === null;

/** `":".join(parts)` (every part must be a str). */
export function join(sep: string, parts: readonly TValue[]): string {
  parts.forEach((p, i) => {
    if (typeof p !== 'string') throw typeError(`sequence item ${i}: expected str instance, ${tTypeName(p)} found`);
  });
  return parts.join(sep);
}
/** `float(x)` inside `try: … except (ValueError, TypeError)`: null when it raises one of them. */
export function floatOrNull(x: TValue): number | null {
  try {
    return float(x);
  } catch (e) {
    if (e instanceof PyException && (e.pyType === 'ValueError' || e.pyType === 'TypeError')) return null;
    throw e;
  }
}

// Python parity: tools._parse_balance / _get_account_balance.
export function parseBalance(val: TValue): number {
  if (typeof val === 'bigint' || typeof val === 'number' || typeof val === 'boolean') return float(val);
  if (typeof val === 'string') return float(val.split('$').join('').split(',').join(''));
  return 0;
}
export const accountBalance = (acc: TDict): number => parseBalance(get(acc, 'current_holdings', get(acc, 'balance', 0n)));

/** `float(str(x).replace("$", "").replace(",", ""))`, else 0.0. */
export const moneyOrZero = (x: TValue): number => floatOrNull(s(x).split('$').join('').split(',').join('')) ?? 0;

type Param = string | readonly [string, TValue];

/** A tool: `@is_tool(type)` (mutates when WRITE unless said), or `@is_discoverable_tool(type)`. */
export function tool(
  name: string,
  toolType: ToolType,
  params: readonly Param[],
  run: (self: Toolkit, a: Args) => TValue,
  extra: { readonly mutates?: boolean; readonly discoverable?: boolean; readonly retrieval?: boolean } = {},
): ToolDef {
  return {
    name,
    toolType,
    mutates: extra.mutates ?? toolType === 'write',
    params: params.map((p) => (typeof p === 'string' ? { name: p } : { name: p[0], default: p[1] })),
    run,
    ...(extra.discoverable ? { discoverable: true } : {}),
    ...(extra.retrieval ? { retrieval: true } : {}),
  };
}

/** A discoverable tool (`@is_discoverable_tool`). */
export const hidden = (name: string, toolType: ToolType, params: readonly Param[], run: (self: Toolkit, a: Args) => TValue): ToolDef =>
  tool(name, toolType, params, run, { discoverable: true });

/** `x in self.db.<table>.data`. */
export function inTable(db: PydModel, table: string, id: TValue): boolean {
  const k = dictKey(id);
  return k !== null && data(db, table).has(k);
}

/** `self.db.<table>.data[id]` (present: checked before), the environment's own copy (a tool may change it). */
export const row = (db: PydModel, table: string, id: TValue): TDict => ownRow(db, table, id as string) as TDict;

/** `self.db.<table>.data.get(id)` (None when absent), the environment's own copy. */
export function rowOrNull(db: PydModel, table: string, id: TValue): TDict | null {
  const k = dictKey(id);
  const r = k === null ? undefined : ownRow(db, table, k);
  return r === undefined ? null : (r as TDict);
}

/** A record (a dict) with its fields in the order given. */
export const record = (...entries: (readonly [string, TValue])[]): TDict => new Map(entries);

/** A datetime from `%m/%d/%Y`, or the fallback when strptime raises ValueError. */
export function dateOr<T>(text: TValue, fallback: T): Stamp | T {
  try {
    return strptime(text, '%m/%d/%Y');
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'ValueError') return fallback;
    throw e;
  }
}
