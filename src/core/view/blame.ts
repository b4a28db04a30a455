import type { Db } from '../model/data/db';
import { hashableStr } from '../py/hashable';
import type { PyValue } from '../py/value';
import { valueAt, type Path } from './field-diff';

const recordOf = (db: Db, table: string, key: string): PyValue | undefined => {
  const t = db.get(table);
  return t instanceof Map ? t.get(key) : undefined;
};

const same = (a: PyValue | undefined, b: PyValue | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && hashableStr(a) === hashableStr(b));

/**
 * The index of the last state transition that changed the value of `table/key` at `path`; null
 * when none did (the value is the initial one — a step that only touched other fields of the
 * record does not count). `states[0]` is the initial DB, `states[i + 1]` the DB after step i.
 */
export function blameStep(states: readonly Db[], table: string, key: string, path: Path): number | null {
  for (let i = states.length - 1; i >= 1; i--) {
    const before = recordOf(states[i - 1]!, table, key);
    const after = recordOf(states[i]!, table, key);
    if (before === after) continue;
    if (!same(valueAt(before, path), valueAt(after, path))) return i - 1;
  }
  return null;
}
