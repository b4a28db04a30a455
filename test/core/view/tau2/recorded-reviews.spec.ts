/**
 * Recorded reviews of a τ² simulation (`review`, `user_only_review`, `auth_classification`,
 * `hallucination_check`, `hallucination_retries_used` of τ²'s `Simulation`): read from the file as
 * recorded, in τ²'s field order, nulls and the default retry count left out, and made plain for the screen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Results } from '../../../../src/core/model/episode/tau2/results';
import { tau2Reviews, type Tau2Recorded } from '../../../../src/core/view/tau2/reviews';

const sample = readFileSync(join(import.meta.dirname, '../../../../sample-runs/runs/tau2-mock-sample.json'), 'utf8');

const entry = (v: Tau2Recorded, key: string): Tau2Recorded | undefined => (v.kind === 'dict' ? v.entries.find(([k]) => k === key)?.[1] : undefined);

describe('recorded τ² reviews', () => {
  it('the sample: the fields the file has, in τ²’s order, values as recorded', () => {
    const file = JSON.parse(sample) as { simulations: Record<string, unknown>[] };
    const run = readTau2Results(sample);
    run.simulations.forEach((sim, i) => {
      const want = ['review', 'user_only_review', 'auth_classification', 'hallucination_check'].filter((k) => file.simulations[i]![k] != null);
      expect(sim.reviews.map(([k]) => k)).toEqual(want);
    });
    const withReview = run.simulations.find((s) => s.reviews.length > 0)!;
    const raw = file.simulations[withReview.index]!.review as { summary: string; has_errors: boolean; cost: number; errors: unknown[] };
    const review = tau2Reviews(withReview).find((r) => r.field === 'review')!.value;
    expect(entry(review, 'summary')).toEqual({ kind: 'scalar', text: raw.summary, type: 'str' });
    expect(entry(review, 'has_errors')).toEqual({ kind: 'scalar', text: String(raw.has_errors), type: 'bool' });
    expect(entry(review, 'cost')).toEqual({ kind: 'scalar', text: String(raw.cost), type: 'number' });
    expect(entry(review, 'errors')).toMatchObject({ kind: 'list', items: { length: raw.errors.length } });
  });

  it('null reviews and a retry count of 0 (τ²’s default) are not shown; other counts are', () => {
    const run = JSON.parse(sample) as { simulations: Record<string, unknown>[] };
    const sims = run.simulations.slice(0, 3);
    sims[0] = { ...sims[0], review: null, auth_classification: null, hallucination_check: null, hallucination_retries_used: 0 };
    sims[1] = { ...sims[1], hallucination_retries_used: 2, user_only_review: { has_errors: false } };
    const read = readTau2Results(JSON.stringify({ ...run, simulations: sims }));
    expect(read.simulations[0]!.reviews).toEqual([]);
    expect(read.simulations[1]!.reviews.map(([k]) => k)).toEqual(['user_only_review', 'hallucination_retries_used']);
    expect(tau2Reviews(read.simulations[1]!)[1]).toEqual({ field: 'hallucination_retries_used', value: { kind: 'scalar', text: '2', type: 'number' } });
  });
});
