/**
 * "The write tracker runs every recorded call as the replay does", as a function of the runs: the gate
 * (blame.spec.ts) checks two runs of ../shared/runs, the soak (test/soak/blame.spec.ts) every run; the same assertions.
 */
import { expect, it } from 'vitest';
import { writesOfCall } from '../../../src/core/env/execute';
import { applyTool, changedRecords } from '../../../src/core/env/replay';
import { overlaps } from '../../../src/core/env/write-log';
import { TOOLS } from '../../../src/core/model/domains/registry';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

export function writeTrackerCases(files: readonly string[]): void {
  describeShared('the write tracker runs every recorded call as the replay does', () => {
    it.each(files)('%s: same observation, and a write in every record the call changed', (file) => {
      const f = evaluatedSharedRun(file);
      let calls = 0;
      const wrong: string[] = [];
      for (const outcome of f.outcomes) {
        if (!('value' in outcome)) continue;
        const ev = outcome.value;
        const sides = [
          { name: 'agent', steps: ev.replay.steps.map((s) => ({ action: s.action, state: s.state })) },
          { name: 'reference', steps: ev.groundTruth.steps.filter((s) => !s.skipped) },
        ];
        for (const side of sides) {
          let before = f.version.db;
          for (const [i, s] of side.steps.entries()) {
            const tool = TOOLS[ev.domain].get(s.action.name);
            if (tool?.writes) {
              calls++;
              const run = writesOfCall(before, tool, s.action.kwargs);
              const replayed = applyTool(ev.domain, before, s.action);
              const unwritten = changedRecords(before, s.state).filter((r) => !run.writes.some((w) => overlaps(w, [r.table, r.key])));
              if (run.observation !== replayed.observation || unwritten.length > 0)
                wrong.push(`episode ${ev.record.index} ${side.name} ${i} ${s.action.name}: ${unwritten.map((r) => `${r.table}/${r.key}`).join(', ')}`);
            }
            before = s.state;
          }
        }
      }
      expect(wrong).toEqual([]);
      if (!file.startsWith('synthetic')) expect(calls).toBeGreaterThan(10);
    });
  });
}
