/**
 * Judged as the run was judged when it was made, with `tau2 evaluate-trajs`' verdict beside it where its rules give
 * another (issue #33 item 5, τ²'s #502), on crafted cases of the invented mock sample: a solo ground-truth run
 * (`llm_agent_solo_gt` with `dummy_user`: solo at run time, not for evaluate-trajs' is_solo_mode), and a recorded write
 * whose answer is not what the replay answers (a run made on this data cannot record it: judged leniently, as
 * evaluate-trajs judges it, and said in the output-differs finding).
 */
import { describe, expect, it } from 'vitest';
import { tau2Judging } from '../../../../src/core/model/episode/tau2/judging';
import type { TValue } from '../../../../src/core/py/pydantic';
import { mockSample } from '../../../support/tau2-sample';
import { soloRun } from '../../../support/tau2-solo';

const info = (agent: string, user: string): Map<string, TValue> =>
  new Map<string, TValue>([
    ['agent_info', new Map([['implementation', agent]])],
    ['user_info', new Map([['implementation', user]])],
  ]);

describe('the rules a run was judged by, from its info', () => {
  it('solo at run time for every solo agent; evaluate-trajs only for llm_agent_solo with dummy_user; gt agents named', () => {
    const cases: [string, string, boolean, boolean, boolean][] = [
      ['llm_agent', 'user_simulator', false, false, false],
      ['llm_agent_gt', 'user_simulator', false, false, true],
      ['llm_agent_solo', 'dummy_user', true, true, false],
      ['llm_agent_solo_gt', 'dummy_user', true, false, true],
      ['llm_agent_solo', 'user_simulator', true, false, false],
      ['langchain_agent', 'user_simulator', false, false, false],
    ];
    for (const [agent, user, runTime, trajs, gt] of cases) {
      const j = tau2Judging(info(agent, user));
      expect([j.runTime.solo, j.evaluateTrajs.solo, j.groundTruth], `${agent} + ${user}`).toEqual([runTime, trajs, gt]);
      expect([j.runTime.strict, j.evaluateTrajs.strict]).toEqual([false, false]);
    }
  });
});

describe('llm_agent_solo_gt: judged in solo mode as at run time, evaluate-trajs differs (#502)', () => {
  it('passes as recorded; the finding gives evaluate-trajs’ 0 and names the solo rule', async () => {
    const s = await mockSample(soloRun('llm_agent_solo_gt'));
    expect(s.run.soloMode).toBe(true);
    expect(s.run.notes.join('\n')).toMatch(
      /llm_agent_solo_gt with dummy_user: .*reference actions as a plan.*evaluate-trajs v1\.0\.1 replays it without solo mode/,
    );
    const r = s.report(0);
    expect(r).toMatchObject({ reward: 1, error: null, db_match: true, matches_recorded_reward: true });
    expect(r.evaluate_trajs).toEqual({ reward: 0, error: null, rules: ['solo'] });
    const f = r.findings.find((x) => x.kind === 'evaluate-trajs-differs');
    expect(f?.text).toMatch(/^tau2 evaluate-trajs \(v1\.0\.1\) would give reward 0; judged as the run was judged, reward 1: it decides solo mode otherwise/);
  });

  it('llm_agent_solo with dummy_user: both judge in solo mode, no finding', async () => {
    const r = (await mockSample(soloRun('llm_agent_solo'))).report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.evaluate_trajs).toBeUndefined();
    expect(r.findings.map((x) => x.kind)).not.toContain('evaluate-trajs-differs');
  });
});

describe('replayed leniently, as evaluate-trajs replays', () => {
  /** Sample simulation 0 (a pass) with its recorded update_task_status answer rewritten by `answer`. */
  const withAnswer = (answer: (recorded: string) => string) =>
    mockSample((run) => {
      const sim = run.simulations[0]! as { messages: { role: string; id?: string; content: string | null }[] };
      const tool = sim.messages.find((m) => m.role === 'tool' && m.id === 'c2')!;
      tool.content = answer(tool.content!);
    });

  it('a recorded write the replay answers otherwise: evaluate-trajs’ lenient verdict, and the finding says a run-time replay would have raised', async () => {
    const r = (await withAnswer((t) => t.replace('Order standing desks', 'Order two standing desks'))).report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.evaluate_trajs).toBeUndefined();
    expect(r.findings.find((x) => x.kind === 'output-differs')?.text).toMatch(
      /^1 tool output replayed differently from the recorded one \(call 1\)\. A run made on this data cannot have recorded call 1 \(update_task_status\): τ² replays writes strictly .* would have raised ValueError there/,
    );
    expect(r.findings.map((x) => x.kind)).not.toContain('evaluate-trajs-differs');
  });

  it('compared as Python compares json.loads: another key order agrees', async () => {
    const reordered = (t: string) => {
      const o = JSON.parse(t) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(o).reverse()));
    };
    const r = (await withAnswer(reordered)).report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.evaluate_trajs).toBeUndefined();
  });

  it('a read (never replayed by τ²) recorded otherwise raises nothing', async () => {
    const s = await mockSample((run) => {
      const sim = run.simulations[0]! as { messages: { role: string; id?: string; content: string | null }[] };
      sim.messages.find((m) => m.role === 'tool' && m.id === 'c1')!.content = '[]';
    });
    const r = s.report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.findings.map((x) => x.kind)).toContain('output-differs');
    expect(r.findings.map((x) => x.kind)).not.toContain('evaluate-trajs-differs');
  });
});
