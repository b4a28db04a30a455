import type { Db } from './db';
import { compareCodePoints, hashableStr } from '../../py/hashable';
import type { PyValue } from '../../py/value';

export interface RecordDiff {
  readonly table: string;
  readonly key: string;
  /** `undefined` when the record is absent on that side. */
  readonly agent: PyValue | undefined;
  readonly reference: PyValue | undefined;
}

/**
 * Top-level records whose `str(to_hashable(record))` differs between two DB states, sorted
 * by `table/key` in code-point order. Shared record objects are skipped without printing.
 */
export function diffRecords(agent: Db, reference: Db): RecordDiff[] {
  if (agent === reference) return [];
  const out: RecordDiff[] = [];
  const tables = new Set([...agent.keys(), ...reference.keys()]);
  for (const table of tables) {
    const a = agent.get(table);
    const r = reference.get(table);
    if (a === r) continue;
    const am = a instanceof Map ? a : new Map<string, PyValue>();
    const rm = r instanceof Map ? r : new Map<string, PyValue>();
    for (const key of new Set([...am.keys(), ...rm.keys()])) {
      const x = am.get(key);
      const y = rm.get(key);
      if (x === y) continue;
      if (x !== undefined && y !== undefined && hashableStr(x) === hashableStr(y)) continue;
      out.push({ table, key, agent: x, reference: y });
    }
  }
  return out.sort((p, q) => compareCodePoints(`${p.table}/${p.key}`, `${q.table}/${q.key}`));
}
