/**
 * "Deltas of every recorded replay", as a function of the runs: the gate (table-delta.spec.ts) checks two runs of
 * ../shared/runs, the soak (test/soak/table-delta.spec.ts) every run; the same assertions.
 */
import { expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import type { RecordDiff } from '../../../src/core/model/data/diff-records';
import { derivesFrom, fullTableDelta, tableDelta } from '../../../src/core/model/data/table-delta';
import { compareCodePoints, hashableStr } from '../../../src/core/py/hashable';
import type { PyValue } from '../../../src/core/py/value';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

/** Every top-level record whose hashed text differs, found by printing every record of both sides (the oracle). */
export function scanDiff(agent: Db, reference: Db): { table: string; key: string }[] {
  const out: { table: string; key: string }[] = [];
  for (const table of new Set([...agent.keys(), ...reference.keys()])) {
    const a = agent.get(table);
    const r = reference.get(table);
    const am = a instanceof Map ? a : new Map<string, PyValue>();
    const rm = r instanceof Map ? r : new Map<string, PyValue>();
    for (const key of new Set([...am.keys(), ...rm.keys()])) {
      const x = am.get(key);
      const y = rm.get(key);
      if (x === undefined || y === undefined || hashableStr(x) !== hashableStr(y)) out.push({ table, key });
    }
  }
  return out.sort((p, q) => compareCodePoints(`${p.table}/${p.key}`, `${q.table}/${q.key}`));
}

export const keysOf = (d: readonly RecordDiff[]) => d.map(({ table, key }) => ({ table, key }));

export function recordedDeltaCases(files: readonly string[]): void {
  describeShared('deltas of every recorded replay (the lineage names every record a tool changed)', () => {
    it.each(files)('%s: each state against the initial DB by lineage equals the full scan; diffs equal the scan', (file) => {
      const f = evaluatedSharedRun(file);
      const initial = f.version.db;
      let viaLineage = 0;
      const wrong: string[] = [];
      for (const outcome of f.outcomes) {
        if (!outcome.ok) continue;
        const ev = outcome.value;
        for (const s of [...ev.replay.steps, ...ev.groundTruth.steps])
          initial.forEach((t0, name) => {
            const t1 = s.state.get(name);
            if (!(t0 instanceof Map) || !(t1 instanceof Map) || t0 === t1) return;
            if (derivesFrom(t1, t0)) viaLineage++;
            const full = fullTableDelta(t1, t0);
            if (JSON.stringify(tableDelta(t1, t0)) !== JSON.stringify(full)) wrong.push(`episode ${ev.record.index} ${name}`);
          });
        if (JSON.stringify(keysOf(ev.diff)) !== JSON.stringify(scanDiff(ev.replay.finalState, ev.groundTruth.state)))
          wrong.push(`episode ${ev.record.index} diff`);
      }
      expect(wrong).toEqual([]);
      if (!file.startsWith('synthetic')) expect(viaLineage).toBeGreaterThan(10);
    });
  });
}
