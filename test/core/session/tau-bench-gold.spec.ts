/**
 * The task audit's gold findings of a τ-bench task (the index writes them into finding_kinds): its reference actions
 * replayed as τ-bench replays them, on the invented sample data — one crafted task per kind, and the task as shipped.
 */
import { describe, expect, it } from 'vitest';
import { tauBenchGoldKinds } from '../../../src/core/session/index-row';
import type { Task } from '../../../src/core/model/episode/types';
import { sampleRun, sampleVersion } from '../../support/fixtures';

const base = (): Task => sampleRun()[0]!.task!;
const kinds = (t: Task): string[] => tauBenchGoldKinds('retail', sampleVersion().db, t);
const action = (name: string, kwargs: Record<string, string>) => ({ name, kwargs: new Map(Object.entries(kwargs)) });

describe('τ-bench gold findings', () => {
  it('the task as shipped: none (its reference cancels an order: the DB changes)', () => {
    expect(kinds(base())).toEqual([]);
  });

  it('a reference action that raises', () => {
    const t = base();
    expect(kinds({ ...t, actions: [...t.actions, action('get_order_details', { order_id: '#NO_SUCH_ORDER' })] })).toEqual(['gold-action-raises']);
  });

  it('a reference that leaves the DB as it started', () => {
    expect(kinds({ ...base(), actions: [action('get_user_details', { user_id: 'priya_okafor_3187' })] })).toEqual(['no-op-reference']);
  });

  it('an output no observation of the reference holds; one it holds (case and commas as τ-bench matches) is not named', () => {
    const t = base();
    expect(kinds({ ...t, outputs: ['zebra-42'] })).toEqual(['gold-info-unseen']);
    expect(kinds({ ...t, outputs: ['PRIYA_OKAFOR_3187'] })).toEqual([]);
  });
});
