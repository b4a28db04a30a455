import { describe, expect, it } from 'vitest';
import { compareRuns, judgedApart, type CompareOutcome, type RunJudging } from '../../../src/core/view/compare';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

type Rewards = { 'db-and-outputs': number; 'outputs-only': number };
const ep = (index: number, taskId: number, reward: number, rewards?: Rewards): CompareOutcome => ({
  index,
  taskId,
  trial: 0,
  reward,
  ...(rewards && { rewards }),
});
const known = (commit: string, date: string) => ({ dataCommit: commit, data: { kind: 'known', commit, date } as const });
const DB: RunJudging = { domain: 'retail', ...known('14bf0ef52e595922d597a38f32d3e8c0dce3a8f8', '2025-01-01'), rule: 'db-and-outputs' };
const OUT: RunJudging = { domain: 'retail', ...known('7362a1708d720a4d697d042f21fd8637ea144c3b', '2024-11-22'), rule: 'outputs-only' };

describe('compareRuns: how A and B were judged', () => {
  // Task 0: A fails under its rule, B passes. Task 1: both pass. Task 2: A passes, B fails.
  const a = [
    ep(0, 0, 0, { 'db-and-outputs': 0, 'outputs-only': 1 }),
    ep(1, 1, 1, { 'db-and-outputs': 1, 'outputs-only': 1 }),
    ep(2, 2, 1, { 'db-and-outputs': 1, 'outputs-only': 1 }),
  ];
  const b = [
    ep(0, 0, 1, { 'db-and-outputs': 1, 'outputs-only': 1 }),
    ep(1, 1, 1, { 'db-and-outputs': 1, 'outputs-only': 1 }),
    ep(2, 2, 0, { 'db-and-outputs': 0, 'outputs-only': 0 }),
  ];

  it('judged alike: nothing apart, flips counted under their common rule', () => {
    const c = compareRuns(a, b, { a: DB, b: DB });
    expect(c.judgedApart).toEqual([]);
    expect(c).toMatchObject({ gained: 1, lost: 1, flipsCounted: true, flipRule: 'db-and-outputs', flipsByRule: [] });
    expect(c.tasks.map((t) => t.flip)).toEqual(['gained', null, 'lost']);
  });

  it('judged by other data and another rule: says so, typed, and counts flips with both runs under one rule, both ways', () => {
    const c = compareRuns(b, a, { a: OUT, b: DB });
    expect(c.judgedApart).toEqual([
      { what: 'data', a: '7362a17', b: '14bf0ef' },
      { what: 'rule', a: 'outputs-only', b: 'db-and-outputs' },
    ]);
    // As judged, task 0 would read as "lost" (B's db-and-outputs 0 against A's outputs-only 1); under either common rule it is not.
    expect(c).toMatchObject({ flipsCounted: true, flipRule: 'outputs-only', gained: 1, lost: 0 });
    expect(c.tasks.map((t) => t.flip)).toEqual([null, null, 'gained']);
    expect(c.flipsByRule).toEqual([
      { rule: 'db-and-outputs', gained: 1, lost: 1 },
      { rule: 'outputs-only', gained: 1, lost: 0 },
    ]);
    // The table still shows each run as judged.
    expect(c.tasks[0]!.a).toEqual({ trials: 1, passes: 1 });
    expect(c.tasks[0]!.b).toEqual({ trials: 1, passes: 0 });
  });

  it('different rules and no reward under a common rule: flips are not counted', () => {
    const strip = (xs: CompareOutcome[]) => xs.map(({ rewards: _r, ...o }) => o);
    const c = compareRuns(strip(a), strip(b), { a: DB, b: OUT });
    expect(c).toMatchObject({ flipsCounted: false, flipRule: null, gained: 0, lost: 0, flipsByRule: [] });
    expect(c.tasks.every((t) => t.flip === null)).toBe(true);
  });

  it('another domain is named too', () => {
    expect(judgedApart(DB, { ...DB, domain: 'airline' })).toEqual([{ what: 'domain', a: 'retail', b: 'airline' }]);
  });
});

describeShared('compareRuns across rules: gpt-4o-airline (7362a17, outputs-only) against grok-4-tool-calling-airline (14bf0ef, db-and-outputs)', () => {
  it('warns of the data version and the rule, and counts flips only with both runs under one rule', () => {
    const side = (file: string) => {
      const f = evaluatedSharedRun(file);
      const judging: RunJudging = f.session.detection();
      const outcomes = f.reports.map((r, i): CompareOutcome => ({
        index: i,
        taskId: r.task_id,
        trial: r.trial,
        reward: r.error === undefined ? (r.reward ?? null) : null,
        rewards: r.rules ?? null,
      }));
      return { judging, outcomes };
    };
    const a = side('gpt-4o-airline.json');
    const b = side('grok-4-tool-calling-airline.json');
    const c = compareRuns(a.outcomes, b.outcomes, { a: a.judging, b: b.judging });
    expect(c.judgedApart.map((x) => x.what)).toEqual(['data', 'rule']);
    expect(c.judgedApart.find((x) => x.what === 'rule')).toEqual({ what: 'rule', a: 'outputs-only', b: 'db-and-outputs' });
    expect(c.flipsCounted).toBe(true);
    expect(c.flipRule).toBe('outputs-only');
    expect(c.flipsByRule.map((f) => f.rule)).toEqual(['db-and-outputs', 'outputs-only']);
    // Counted as judged (each run under its own rule), the flips differ from both same-rule counts.
    const mixed = compareRuns(a.outcomes, b.outcomes);
    expect({ gained: mixed.gained, lost: mixed.lost }).toEqual({ gained: 5, lost: 1 });
    expect(c.flipsByRule).toEqual([
      { rule: 'db-and-outputs', gained: 5, lost: 1 },
      { rule: 'outputs-only', gained: 6, lost: 1 },
    ]);
    expect({ gained: c.gained, lost: c.lost }).toEqual({ gained: 6, lost: 1 });
  });
});
