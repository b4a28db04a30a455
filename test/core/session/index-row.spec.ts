/**
 * A τ-bench file's index rows (`tauBenchRunRows`: each row made from the episode's outcome, the gold findings from the
 * reference replay it was judged against) against the rows made the long way — every episode's full report
 * (`evaluateAll`, `evaluate --json`'s object) through `tauBenchRow`, the gold findings from the task's reference
 * actions replayed again (`tauBenchGoldKinds`) — on every run of ../shared/runs: the same rows, value for value.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalCache, InspectSession } from '../../../src/core/contract';
import { tauBenchGoldKinds, tauBenchRow, tauBenchRunRows, tauBenchSpend, type IndexRow } from '../../../src/core/session/index-row';
import { sharedRunFiles, sharedVersions } from '../../support/fixtures';
import { describeShared, SHARED_DIR } from '../../support/shared';

const facts = { file: 'runs/x.json', content_hash: 'c0ffee' };

function session(file: string, cache: EvalCache, edit: (text: string) => string = (t) => t): InspectSession {
  const s = InspectSession.fromBytes(Buffer.from(edit(readFileSync(join(SHARED_DIR, 'runs', file), 'utf8'))), {}, cache, { keptEvaluations: 8 });
  s.useData(sharedVersions(s.domain));
  return s;
}

/** The rows as index made them before: every full report, then each task's reference actions replayed again for its gold findings. */
function longWay(s: InspectSession): IndexRow[] {
  const rows = s.evaluateAll((r) => tauBenchRow(facts, r, tauBenchSpend(s.records[r.index]?.raw)));
  const db = s.dataVersion!.db;
  return rows.map((row) => {
    const task = s.records[row.index]?.task;
    if (!task || row.error !== null) return row;
    const kinds = tauBenchGoldKinds(s.domain, db, task);
    return kinds.length === 0 ? row : { ...row, finding_kinds: [...new Set([...row.finding_kinds, ...kinds])] };
  });
}

describeShared('index rows from outcomes, as from full reports', () => {
  describe.each(sharedRunFiles())('%s', (file) => {
    it('the same rows', () => {
      const cache = new EvalCache();
      const quick = tauBenchRunRows(session(file, cache), facts);
      const long = longWay(session(file, cache));
      expect(quick).toEqual(long);
      // The rows say something: each run has judged rows, and the kinds of rows the comparison covers.
      expect(quick.some((r) => r.reward !== null)).toBe(true);
    }, 120_000);
  });

  it('an episode whose recorded gt_data_hash the file’s other episodes outvote: its finding is in its row', () => {
    // The first two recorded hashes of gpt-4o-airline made ones no data version gives.
    let n = 0;
    const forged = (t: string): string => t.replace(/"gt_data_hash": "[0-9a-f]{64}"/g, (h) => (n++ < 2 ? `"gt_data_hash": "${'ab'.repeat(32)}"` : h));
    const cache = new EvalCache();
    const quick = tauBenchRunRows(session('gpt-4o-airline.json', cache, forged), facts);
    n = 0;
    const long = longWay(session('gpt-4o-airline.json', cache, forged));
    expect(quick).toEqual(long);
    expect(quick.filter((r) => r.finding_kinds.includes('recorded-hash-minority'))).toHaveLength(2);
  }, 120_000);
});
