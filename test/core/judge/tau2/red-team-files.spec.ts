/**
 * Hostile τ³ files (banking_knowledge, voice run folders) made in the test from ../shared's runs: each simulation gets
 * the verdict τ² v1.0.1 gives it, or none with τ²'s reason, or its verdict carries the refusal τ²'s Results.load gives
 * the file — never a verdict τ² would give without saying so. Each case was run through τ²'s own Results.load and
 * evaluate_simulation (as evaluate-trajs calls it) to learn what τ² does with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { readTau2Folder, readTau2Text } from '../../../../src/core/contract';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';

type Json = Record<string, unknown>;
const MOCK = join(TAU2_DIR, 'voice', 'runs', 'voice-pr170-e2e-mock-baseline-s1');

/** The mock voice run folder: results.json and its simulation files, as objects to change. */
function mockFolder(): { meta: Json & { simulation_index: Json[] }; sims: { name: string; sim: Json }[] } {
  const dir = join(MOCK, 'simulations');
  return {
    meta: JSON.parse(readFileSync(join(MOCK, 'results.json'), 'utf8')) as Json & { simulation_index: Json[] },
    sims: readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((name) => ({ name, sim: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Json })),
  };
}
const openFolder = (f: ReturnType<typeof mockFolder>) =>
  Tau2Session.open(
    readTau2Folder(
      JSON.stringify(f.meta),
      f.sims.map((s) => ({ name: s.name, text: JSON.stringify(s.sim) })),
    ),
    tau2Read,
  );
const reports = (s: Tau2Session) => Array.from({ length: s.size }, (_, i) => s.report(i));

describeTau2('hostile τ³ files: τ²’s verdict, or none with the reason', () => {
  let plain: ReturnType<typeof reports>;
  beforeAll(async () => {
    plain = reports(await openFolder(mockFolder()));
  });

  it('the plain mock voice folder: every simulation judged, nothing refused', () => {
    expect(plain.map((r) => [r.reward, r.error, r.tau2_would_refuse])).toEqual(plain.map(() => [1, null, null]));
  });

  it('a run folder whose simulation_index lists a simulation without its file: τ²’s Results.load refuses the folder, and every verdict says so', async () => {
    const f = mockFolder();
    const gone = f.sims.shift()!;
    const got = reports(await openFolder(f));
    const refusal = `Dir format integrity check failed for results.json: Missing simulation files: ['${gone.name.replace(/\.json$/, '')}']`;
    expect(got.map((r) => [r.simulation_id, r.reward, r.tau2_would_refuse])).toEqual(
      plain.filter((r) => `${r.simulation_id}.json` !== gone.name).map((r) => [r.simulation_id, r.reward, refusal]),
    );
  });

  it('a simulation file the index does not list: refused the same way, named', async () => {
    const f = mockFolder();
    f.sims.push({ name: 'stray.json', sim: { ...f.sims[0]!.sim, id: 'stray' } });
    const got = reports(await openFolder(f));
    expect(new Set(got.map((r) => r.tau2_would_refuse))).toEqual(
      new Set(["Dir format integrity check failed for results.json: Extra simulation files not in index: ['stray']"]),
    );
  });

  it('unknown fields everywhere (results, index entry, simulation, tick, chunk): τ² ignores them, and so do the verdicts', async () => {
    const f = mockFolder();
    f.meta.extra_top = 1;
    f.meta.simulation_index[0]!.extra_entry = 1;
    for (const { sim } of f.sims) {
      sim.extra_sim = 1;
      const ticks = sim.ticks as Json[];
      ticks[0]!.extra_tick = 1;
      const chunk = ticks.find((t) => t.agent_chunk)!.agent_chunk as Json;
      chunk.extra_chunk = 1;
    }
    expect(reports(await openFolder(f))).toEqual(plain);
  });

  it('a voice simulation without reward_info, or cut short after half its ticks: judged by τ²’s rules from what is there', async () => {
    const f = mockFolder();
    delete f.sims[0]!.sim.reward_info;
    const ticks = f.sims[1]!.sim.ticks as Json[];
    f.sims[1]!.sim.ticks = ticks.slice(0, Math.floor(ticks.length / 2));
    const got = reports(await openFolder(f));
    // τ² recomputes every reward: a missing reward_info is only nothing to compare with.
    expect(got[0]).toMatchObject({ reward: 1, error: null, recorded_reward: null, tau2_would_refuse: null });
    // Half the ticks hold no create_task call: τ² gives 0 (DB and action checks fail), no error.
    expect(got[1]).toMatchObject({ reward: 0, db_match: false, error: null, tau2_would_refuse: null });
  });

  it('a voice simulation whose task id is not among the file’s tasks: not evaluable, said why (τ²’s evaluate-trajs raises KeyError)', async () => {
    const f = mockFolder();
    f.sims[0]!.sim.task_id = 'absent_task';
    const got = reports(await openFolder(f));
    expect(got[0]).toMatchObject({ reward: 0, error: 'task absent_task is not in the file' });
  });

  it('a banking simulation whose task id is not in the file: not evaluable, said why; one without reward_info: τ²’s own verdict', async () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'banking', 'runs', 'banking-a-s1.json'), 'utf8')) as Json & { simulations: Json[] };
    const expected = JSON.parse(readFileSync(join(TAU2_DIR, 'banking', 'expected', 'banking-a-s1.expected.json'), 'utf8')) as {
      simulations: { simulation_id: string; reward: number }[];
    };
    run.simulations = run.simulations.slice(0, 3);
    run.simulations[0]!.task_id = 'task_999';
    delete run.simulations[1]!.reward_info;
    const got = reports(await Tau2Session.open(readTau2Text(JSON.stringify(run))!, tau2Read));
    expect(got[0]).toMatchObject({ reward: 0, error: 'task task_999 is not in the file', tau2_would_refuse: null });
    const want = (i: number) => expected.simulations.find((x) => x.simulation_id === run.simulations[i]!.id)!.reward;
    expect(got[1]).toMatchObject({ reward: want(1), error: null, recorded_reward: null, tau2_would_refuse: null });
    expect(got[2]).toMatchObject({ reward: want(2), error: null, matches_recorded_reward: true });
  });
  it('a banking task whose initialization action calls KnowledgeTools.set_read_log_allowlist: judged with that allowlist, as τ² judges it', async () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'banking', 'runs', 'banking-a-s1.json'), 'utf8')) as Json & { simulations: Json[]; tasks: Json[] };
    const gold = run.simulations.find((s) => s.task_id === 'task_056' && (s.info as Json | null)?.corpus_variant === 'gold')!;
    // The gold simulation without its read of get_all_user_accounts_by_user_id_3847 (a read the task's gold actions make,
    // so τ² logs it into the hashed DB): the assistant message making it and its tool message dropped.
    const isRead = (m: Json) =>
      m.role === 'assistant' &&
      Array.isArray(m.tool_calls) &&
      (m.tool_calls as Json[]).every((c) => (c.arguments as Json).agent_tool_name === 'get_all_user_accounts_by_user_id_3847');
    const messages = gold.messages as Json[];
    const at = messages.findIndex(isRead);
    const noRead = { ...gold, id: 'no-read', messages: messages.filter((_, i) => i !== at && i !== at + 1) };
    const judge = async (allowlist: unknown) => {
      const task = structuredClone(run.tasks.find((t) => t.id === 'task_056')!);
      if (allowlist !== undefined)
        task.initial_state = {
          ...(task.initial_state as Json | null),
          initialization_actions: [{ env_type: 'assistant', func_name: 'set_read_log_allowlist', arguments: { allowlist } }],
        };
      const file = { ...run, tasks: [task], simulations: [noRead] };
      return reports(await Tau2Session.open(readTau2Text(JSON.stringify(file))!, tau2Read))[0]!;
    };
    expect(await judge(undefined)).toMatchObject({ reward: 0, db_match: false, error: null });
    // An empty allowlist: the read is logged neither in the gold run nor in the agent's, so the DBs agree (τ²: reward 1).
    expect(await judge(null)).toMatchObject({ reward: 1, db_match: true, error: null });
    expect(await judge(['get_all_user_accounts_by_user_id_3847'])).toMatchObject({ reward: 0, db_match: false, error: null });
    // set() of a non-iterable, or of an unhashable item, raises in the initialization: no verdict.
    expect(await judge(5)).toMatchObject({ reward: 0, error: "TypeError: 'int' object is not iterable" });
    expect(await judge([['a']])).toMatchObject({ reward: 0, error: "TypeError: unhashable type: 'list'" });
  });
});
