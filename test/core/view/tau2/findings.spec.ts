/** What τ² does not count, and what the file records that the recomputation does not reproduce. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';

const MOCK = 'sierra-research__pr170-e2e-mock-baseline.json';
const open = (edit: (run: { simulations: Record<string, unknown>[]; tasks: Record<string, unknown>[] }) => void) => {
  const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', MOCK), 'utf8'));
  edit(run);
  return Tau2Session.open(Tau2Session.read(JSON.stringify(run)), tau2Read);
};

describeTau2('τ² findings', () => {
  it('a recorded db_match and reward that the recomputation does not reproduce are named; the verdict stays the recomputed one', async () => {
    const s = await open((run) => {
      const ri = run.simulations[0]!.reward_info as { db_check: { db_match: boolean }; reward: number };
      ri.db_check.db_match = false;
      ri.reward = 0;
    });
    const r = s.report(0);
    expect(r.reward).toBe(1);
    expect(r.matches_recorded_reward).toBe(false);
    expect(r.findings.map((f) => f.kind)).toEqual(expect.arrayContaining(['recorded-differs', 'recorded-fail-recomputed-pass']));
    expect(r.findings.find((f) => f.kind === 'recorded-differs')!.text).toBe('The file records db_match false; recomputed, it is true.');
  });

  it('action checks outside the basis are named as not counted; a reference that changes nothing is named as a no-op', async () => {
    const s = await open((run) => {
      const actions = (run.tasks[0]!.evaluation_criteria as { actions: { arguments: Record<string, string> }[] }).actions;
      actions[0]!.arguments.title = 'Another title';
    });
    const r = s.report(0);
    expect(r.action_checks!.map((c) => c.action_match)).toEqual([false]);
    expect(r.reward).toBe(0); // the DB differs now: the reference made another task
    expect(r.findings.map((f) => f.kind)).toContain('ignored-action-check');
    const noop = await open((run) => {
      (run.tasks[0]!.evaluation_criteria as { actions: unknown[] }).actions = [{ action_id: 'x', name: 'get_users', arguments: {}, requestor: 'assistant' }];
    });
    expect(noop.report(0).findings.map((f) => f.kind)).toContain('no-op-reference');
  });

  it("'telecom-workflow' (τ²'s telecom with the workflow policy) is judged as telecom; a fork's own domain is named and refused", async () => {
    const text = readFileSync(join(TAU2_DIR, 'runs', 'sierra-research__gym-gpt-4.1-telecom-solo-1task.json'), 'utf8');
    const plain = await Tau2Session.open(Tau2Session.read(text), tau2Read);
    const workflow = await Tau2Session.open(Tau2Session.read(text.replace('"domain_name": "telecom"', '"domain_name": "telecom-workflow"')), tau2Read);
    expect(workflow.run.domain).toBe('telecom-workflow');
    expect(workflow.report(0)).toEqual(plain.report(0));
    await expect(Tau2Session.open(Tau2Session.read(text.replace('"domain_name": "telecom"', '"domain_name": "fork_bank"')), tau2Read)).rejects.toThrow(
      "'fork_bank' is not one of τ²'s domains",
    );
  });

  it('a full-duplex simulation and a premature one are judged as τ² does, never crash', async () => {
    const s = await open((run) => {
      run.simulations.push({ ...run.simulations[0]!, id: 'voice', mode: 'full_duplex', ticks: [] });
      run.simulations.push({ ...run.simulations[0]!, id: 'early', termination_reason: 'max_steps' });
    });
    // Judged on its ticks (none: no call, nothing said), never on the messages it also carries.
    expect(s.report(1)).toMatchObject({ error: null, tool_calls: [], db_match: false, reward: 0 });
    expect(s.evaluate(1).spoken).toEqual([]);
    expect(s.report(2)).toMatchObject({ premature: true, reward: 0, db_hash: null, action_checks: null });
  });
});
