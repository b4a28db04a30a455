import type { Db } from './db';
import { compareCodePoints, hashableStr } from '../../py/hashable';
import type { PyValue } from '../../py/value';
import { tableDelta } from './table-delta';

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
    if (a instanceof Map && r instanceof Map) {
      // Only keys where the two tables hold different objects can print differently (see `tableDelta`).
      const { changed, removed } = tableDelta(a, r);
      for (const key of changed) differs(out, table, key, a.get(key)!, r.get(key));
      for (const key of removed) out.push({ table, key, agent: undefined, reference: r.get(key) });
      continue;
    }
    const am = a instanceof Map ? a : new Map<string, PyValue>();
    const rm = r instanceof Map ? r : new Map<string, PyValue>();
    // forEach: no array of every key of a table (thousands) per call; records shared by both sides are skipped at once.
    am.forEach((x, key) => differs(out, table, key, x, rm.get(key)));
    rm.forEach((y, key) => {
      if (!am.has(key)) out.push({ table, key, agent: undefined, reference: y });
    });
  }
  return out.sort((p, q) => compareCodePoints(`${p.table}/${p.key}`, `${q.table}/${q.key}`));
}

/** Adds `table/key` to `out` unless the agent's record `x` prints as the reference's `y` (absent: `undefined`). */
function differs(out: RecordDiff[], table: string, key: string, x: PyValue, y: PyValue | undefined): void {
  if (x === y || (y !== undefined && hashableStr(x) === hashableStr(y))) return;
  out.push({ table, key, agent: x, reference: y });
}
