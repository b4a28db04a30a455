/**
 * The task audit, one crafted case per kind: the gold replay's findings on a τ² mock task edited to show each
 * (reference action that raises, a reference that changes nothing, information no reference output holds, an env
 * assertion the reference fails), and the across-runs kinds (no run passes, every run passes, verdicts that disagree
 * in two runs) on a crafted library table, with the cases just short of each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditTasks, TableBuilder, type LibraryRun } from '../../../../src/core/contract';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';

type Criteria = { actions: Record<string, unknown>[]; env_assertions: unknown; communicate_info: unknown; reward_basis: string[] };
const MOCK = 'sierra-research__pr170-e2e-mock-baseline.json';
async function mockKinds(edit: (c: Criteria) => void): Promise<string[]> {
  const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', MOCK), 'utf8'));
  edit(run.tasks[0].evaluation_criteria as Criteria);
  const s = await Tau2Session.open(Tau2Session.read(JSON.stringify(run)), tau2Read);
  return s.report(0).findings.map((f) => f.kind);
}
const GOLD = ['gold-action-raises', 'no-op-reference', 'gold-info-unseen', 'gold-assertion-fails'];

describeTau2('task audit: the gold replay of a τ² task', () => {
  it('the task as shipped: no gold finding', async () => {
    expect((await mockKinds(() => {})).filter((k) => GOLD.includes(k))).toEqual([]);
  });

  it('a reference action that raises', async () => {
    const kinds = await mockKinds((c) =>
      c.actions.push({ action_id: 'x', requestor: 'assistant', name: 'update_task_status', arguments: { task_id: 'no_such_task', status: 'completed' } }),
    );
    expect(kinds).toContain('gold-action-raises');
  });

  it('a reference that leaves the DB as it started', async () => {
    const kinds = await mockKinds((c) => (c.actions = [{ action_id: 'x', requestor: 'assistant', name: 'get_users', arguments: {} }]));
    expect(kinds).toContain('no-op-reference');
  });

  it('communicate info that no output of the reference holds; info an output holds is not named', async () => {
    expect(await mockKinds((c) => (c.communicate_info = ['zebra-42']))).toContain('gold-info-unseen');
    // create_task answers with the task it made: its title is in that output (lowercased, as τ² compares).
    expect(await mockKinds((c) => (c.communicate_info = ['important meeting']))).not.toContain('gold-info-unseen');
  });

  it('an env assertion that fails on the reference replay; one it meets is not named', async () => {
    const assertion = (n: number) => [
      { env_type: 'assistant', func_name: 'assert_number_of_tasks', arguments: { user_id: 'user_1', expected_number: n }, assert_value: true },
    ];
    const failing = await mockKinds((c) => (c.env_assertions = assertion(99)));
    expect(failing).toContain('gold-assertion-fails');
    const counts = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (n) => (await mockKinds((c) => (c.env_assertions = assertion(n)))).includes('gold-assertion-fails')),
    );
    // Exactly one count is the reference's own: met there, failing for every other.
    expect(counts.filter((x) => !x)).toHaveLength(1);
  });
});

const run = (file: string, benchmark = 'tau2', domain = 'airline'): LibraryRun => ({
  file,
  benchmark,
  domain,
  model: null,
  userModel: null,
  dataVersion: null,
  contentHash: file,
});

describe('task audit across runs', () => {
  const b = new TableBuilder();
  const add = (r: LibraryRun, index: number, task: string, reward: number | null, o: { recorded?: number; kinds?: string[]; disagree?: boolean } = {}) =>
    b.add({
      run: r,
      index,
      task,
      trial: 0,
      recorded: o.recorded ?? reward,
      reward,
      error: reward === null,
      infrastructure: false,
      disagree: o.disagree ?? false,
      findingKinds: o.kinds ?? [],
    });
  const [x, y, z] = [run('x.json'), run('y.json'), run('z.json', 'tau-bench', 'airline')];
  // Task 1: no run passes (one not judged). Task 2: every run passes. Task 3: disagrees in two runs. Task 4: in one only
  // (and evaluate-trajs would judge one of its simulations otherwise).
  add(x, 0, '1', 0);
  add(y, 0, '1', null);
  add(x, 1, '2', 1);
  add(y, 1, '2', 1);
  add(x, 2, '3', 1, { recorded: 0, disagree: true });
  add(y, 2, '3', 0, { recorded: 1, disagree: true, kinds: ['gold-action-raises', 'no-op-reference', 'gold-info-unseen', 'gold-assertion-fails', 'other'] });
  add(x, 3, '4', 1, { recorded: 0, disagree: true, kinds: ['evaluate-trajs-differs'] });
  add(y, 3, '4', 0);
  // τ-bench airline tasks 2 and 1 are other tasks, of one run only: neither "every run" nor "no run" (one run says nothing).
  add(z, 0, '2', 1);
  add(z, 1, '1', 0);
  const findings = auditTasks(b.finish());
  const list = findings.map((f) => `${f.benchmark} ${f.domain} ${f.task} ${f.kind} ${f.showing}/${f.runs} ${f.example.file}#${f.example.index}`);

  it('lists each kind with a simulation that shows it, in task and kind order', () => {
    expect(list).toEqual([
      'tau2 airline 1 no-run-passes 2/2 x.json#0',
      'tau2 airline 2 every-run-passes 2/2 x.json#1',
      'tau2 airline 3 gold-action-raises 1/2 y.json#2',
      'tau2 airline 3 gold-no-op 1/2 y.json#2',
      'tau2 airline 3 gold-info-unseen 1/2 y.json#2',
      'tau2 airline 3 gold-assertion-fails 1/2 y.json#2',
      'tau2 airline 3 verdicts-disagree 2/2 x.json#2',
      // How a run was judged: one run is enough (evaluate-trajs would give another reward, #502).
      'tau2 airline 4 evaluate-trajs-differs 1/2 x.json#3',
    ]);
  });
});
