/**
 * Copy-on-write for banking_knowledge's DB: an environment's TransactionalDB shares the base's tables until a tool
 * writes one (`ownTable`: a table of its own, holding the base's records), and the base's records until a tool takes
 * one to change it (`ownRow`), so the base is never written and the hasher reuses the text of all a call did not touch.
 */
import { deepCopyValue, PydModel, type TDict, type TValue } from '../../../../py/pydantic';

/** Each copy's base (the DB its tables and records are shared with). */
const bases = new WeakMap<PydModel, PydModel>();

/** A TransactionalDB sharing `base`'s tables and records (see `ownTable`, `ownRow`). */
export function bankingCopy(base: PydModel): PydModel {
  const copy = new PydModel(base.cls, new Map(base.fields));
  bases.set(copy, base);
  return copy;
}

/** `getattr(db, name).data` for a tool that may add to or change the table: the copy's own. */
export function ownTable(db: PydModel, name: string): TDict | null {
  const table = db.fields.get(name);
  if (!(table instanceof PydModel)) return null;
  const base = bases.get(db);
  if (base !== undefined && base.fields.get(name) === table) {
    const fields = new Map<string, TValue>();
    for (const [k, v] of table.fields) fields.set(k, k === 'data' && v instanceof Map ? new Map(v) : deepCopyValue(v));
    const mine = new PydModel(table.cls, fields);
    db.fields.set(name, mine);
    return fields.get('data') as TDict;
  }
  return table.fields.get('data') as TDict;
}

/** `data[id]` of a table for a tool that may change it: the copy's own record (copied from the base the first time). */
export function ownRow(db: PydModel, table: string, id: string): TValue | undefined {
  const base = bases.get(db);
  const current = (db.fields.get(table) as PydModel | undefined)?.fields.get('data') as TDict | undefined;
  const r = current?.get(id);
  if (base === undefined || !(r instanceof Map)) return r;
  const baseData = (base.fields.get(table) as PydModel | undefined)?.fields.get('data') as TDict | undefined;
  if (baseData?.get(id) !== r) return r;
  const mine = deepCopyValue(r);
  ownTable(db, table)!.set(id, mine);
  return mine;
}
