/**
 * `index`'s plan (src/cli/library/plan.ts): files that need the same data go to the same worker, the workers' bytes
 * are balanced, every file is handed out exactly once, and a worker whose own files are done takes another's
 * (one of a group it has loaded first); the data a file needs is guessed from its first bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { dataGroup, IndexPlan } from '../../src/cli/library/plan';

it('every file once; groups kept together and dealt out by bytes; a worker with nothing left takes from the busiest', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ bytes: fc.integer({ min: 1, max: 1000 }), group: fc.constantFrom('a', 'b', 'c', 'd') }), { maxLength: 30 }),
      fc.integer({ min: 1, max: 4 }),
      (jobs, workers) => {
        const plan = new IndexPlan(
          jobs.map((j, id) => ({ ...j, id })),
          workers,
        );
        const queues = (plan as unknown as { queues: { group: string; bytes: number }[][] }).queues;
        // A group in one queue, each queue biggest first.
        const owner = new Map<string, number>();
        queues.forEach((q, w) =>
          q.forEach((j, i) => {
            expect(owner.get(j.group) ?? w).toBe(w);
            owner.set(j.group, w);
            if (i > 0) expect(q[i - 1]!.bytes).toBeGreaterThanOrEqual(j.bytes);
          }),
        );
        // Worker 0 alone drains everything: its own files first, then the others'.
        const taken: number[] = [];
        const own = queues[0]!.length;
        for (let j = plan.next(0); j !== null; j = plan.next(0)) taken.push((j as unknown as { id: number }).id);
        expect(taken.sort((x, y) => x - y)).toEqual(jobs.map((_, i) => i));
        expect(own).toBeLessThanOrEqual(taken.length);
      },
    ),
    { numRuns: 200, seed: 36 },
  );
});

it('a stealing worker takes a file of a group it has loaded before any other', () => {
  const plan = new IndexPlan(
    [
      { bytes: 100, group: 'big' },
      { bytes: 90, group: 'big' },
      { bytes: 80, group: 'big' },
      { bytes: 5, group: 'small' },
      { bytes: 1, group: 'small2' },
    ],
    2,
  );
  expect(plan.next(1)).toMatchObject({ group: 'small' });
  expect(plan.next(1)).toMatchObject({ group: 'small2' });
  expect(plan.next(0)).toMatchObject({ bytes: 100 });
  // Worker 1's own are done: it takes worker 0's biggest left.
  expect(plan.next(1)).toMatchObject({ bytes: 90 });
  expect(plan.next(0)).toMatchObject({ bytes: 80 });
  expect(plan.next(0)).toBeNull();
  expect(plan.next(1)).toBeNull();
});

it('the data a file needs, from its first bytes: τ²’s domain name, τ-bench’s tools, else other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'index-plan-'));
  try {
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(await dataGroup(file('t.json', '{"info": {"environment_info": {"domain_name": "telecom"}}}'), 'file')).toBe('tau2:telecom');
    expect(await dataGroup(file('a.json', '[{"info": {"task": {"actions": [{"name": "book_reservation"}]}}}]'), 'file')).toBe('tau-bench:airline');
    expect(await dataGroup(file('r.json', '[{"traj": [{"name": "get_order_details"}, {"name": "find_user_id_by_email"}]}]'), 'file')).toBe('tau-bench:retail');
    expect(await dataGroup(file('x.json', '{}'), 'file')).toBe('other');
    expect(await dataGroup(join(dir, 'missing.json'), 'file')).toBe('other');
    expect(await dataGroup(dir, 'tau2-folder')).toBe('tau2-folder');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
