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

/**
 * The DB after a task's initialization data (`update_db`: the dump updated key by key, addict-style, then validated),
 * made as a copy of `base` that shares every table and record the data does not touch; null when the data is not
 * plain table data (an unknown table, a record that is no dict…): the caller then dumps and validates, as τ² does.
 */
export function bankingInitialized(base: PydModel, update: TDict): PydModel | null {
  for (const [name, t] of update) {
    if (!(base.fields.get(name) instanceof PydModel) || !(t instanceof Map)) return null;
    for (const [k, v] of t)
      if (!((k === 'notes' && typeof v === 'string') || (k === 'data' && v instanceof Map && [...v.values()].every((r) => r instanceof Map)))) return null;
  }
  const db = bankingCopy(base);
  for (const [name, t] of update as Map<string, TDict>) {
    const records = t.get('data') as TDict | undefined;
    if (records !== undefined) {
      const table = ownTable(db, name)!;
      for (const [id, rec] of records) {
        if (table.get(id) instanceof Map) mergeInto(ownRow(db, name, id) as TDict, rec as TDict);
        else table.set(id, deepCopyValue(rec));
      }
    }
    if (t.has('notes')) {
      ownTable(db, name);
      (db.fields.get(name) as PydModel).fields.set('notes', t.get('notes')!);
    }
  }
  return db;
}

// Python parity: addict.Dict.update — a dict into a dict merged key by key, anything else replaced by a copy.
function mergeInto(target: TDict, source: TDict): void {
  source.forEach((value, k) => {
    const here = target.get(k);
    if (here instanceof Map && value instanceof Map) mergeInto(here, value);
    else target.set(k, deepCopyValue(value));
  });
}
