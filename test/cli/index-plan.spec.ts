/**
 * `index`'s plan (src/cli/library/plan.ts): files that need the same data go to the same worker, the workers' bytes
 * are balanced, every file is handed out exactly once, each worker's files group by group (so a group's data can go
 * once it is done), and a worker whose own files are done takes another's (one of a group it has loaded first; one of
 * another group only when what is left outweighs loading its data); the data a file needs is guessed from its first bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { dataGroup, IndexPlan, loadBytes } from '../../src/cli/library/plan';

it('every file once; groups kept together and dealt out by bytes; a worker with nothing left takes from the busiest', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ bytes: fc.integer({ min: 1, max: 1000 }), group: fc.constantFrom('a', 'b', 'c', 'd') }), { maxLength: 30 }),
      fc.integer({ min: 1, max: 4 }),
      (jobs, workers) => {
        const plan = new IndexPlan(
          jobs.map((j, id) => ({ ...j, id })),
          workers,
          () => 0,
        );
        const queues = (plan as unknown as { queues: { group: string; bytes: number }[][] }).queues;
        // A group in one queue, in one run, its files biggest first.
        const owner = new Map<string, number>();
        queues.forEach((q, w) =>
          q.forEach((j, i) => {
            expect(owner.get(j.group) ?? w).toBe(w);
            if (owner.has(j.group) && q[i - 1]!.group !== j.group) throw new Error(`group ${j.group} in two runs of queue ${w}`);
            owner.set(j.group, w);
            if (i > 0 && q[i - 1]!.group === j.group) expect(q[i - 1]!.bytes).toBeGreaterThanOrEqual(j.bytes);
          }),
        );
        // Worker 0 alone drains everything (loading costs nothing here): its own files first, then the others'.
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
    () => 0,
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

it('a worker takes a file of a group it has not loaded only when what the other has left outweighs loading it and judging the file', () => {
  const jobs = [
    { bytes: 100, group: 'big' },
    { bytes: 30, group: 'big' },
    { bytes: 20, group: 'big' },
    { bytes: 10, group: 'small' },
  ];
  // Loading costs 40: worker 1, done with its own, would load for 30 of the 50 left (40 + 30 > 50): it does not.
  const costly = new IndexPlan(jobs, 2, () => 40);
  expect(costly.next(1)).toMatchObject({ group: 'small' });
  expect(costly.next(0)).toMatchObject({ bytes: 100 });
  expect(costly.next(1)).toBeNull();
  expect(costly.next(0)).toMatchObject({ bytes: 30 });
  expect(costly.next(0)).toMatchObject({ bytes: 20 });
  expect(costly.next(0)).toBeNull();
  // Loading costs 10: 10 + 30 ≤ 50, it does.
  const cheap = new IndexPlan(jobs, 2, () => 10);
  expect(cheap.next(1)).toMatchObject({ group: 'small' });
  expect(cheap.next(0)).toMatchObject({ bytes: 100 });
  expect(cheap.next(1)).toMatchObject({ bytes: 30 });
  // Loaded now: the rest of the group is taken as any loaded group's.
  expect(cheap.next(1)).toMatchObject({ bytes: 20 });
  expect(cheap.next(0)).toBeNull();
});

it('the groups a worker is done with: loaded, no file left of them, not the one it is on', () => {
  const plan = new IndexPlan(
    [
      { bytes: 100, group: 'a' },
      { bytes: 90, group: 'a' },
      { bytes: 50, group: 'b' },
      { bytes: 40, group: 'c' },
    ],
    1,
  );
  expect(plan.next(0)).toMatchObject({ group: 'a', bytes: 100 });
  expect(plan.finished(0, 'a')).toEqual([]);
  expect(plan.next(0)).toMatchObject({ group: 'a', bytes: 90 });
  expect(plan.finished(0, 'a')).toEqual([]);
  expect(plan.next(0)).toMatchObject({ group: 'b' });
  expect(plan.finished(0, 'b')).toEqual(['a']);
  expect(plan.next(0)).toMatchObject({ group: 'c' });
  expect(plan.finished(0, 'c')).toEqual(['b']);
  expect(plan.next(0)).toBeNull();
});

it('loading a τ-bench domain costs more than a τ² one, as measured', () => {
  expect(loadBytes('tau-bench:airline')).toBeGreaterThan(loadBytes('tau2:airline'));
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
