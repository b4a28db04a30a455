/**
 * Full-duplex (voice) parity: every simulation of the run folders in ../shared/tau2/voice/runs re-judged from its ticks
 * and compared with τ²'s own records (../shared/tau2/voice/expected): reward, basis and breakdown, the DB check, the
 * initial hashes, the predicted hashes (τ²'s records keep them as `full_replay.final_db_hash`; their `db_hash` is null for
 * every voice simulation), the gold hashes (τ²'s records of the text simulation each was converted from), every env
 * assertion, action check and communicate check (with its justification: the merged text it was found in), and every
 * tool call with its message index in the history τ² derives from the ticks, its `tick_id` and its replayed output.
 * `evaluator_replayed` is not compared: τ²'s voice records say false for every call, the text records' meaning of it
 * (the calls `EnvironmentEvaluator` re-executes) does not carry over to `FullDuplexEnvironmentEvaluator`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTau2Folder } from '../../../../src/core/contract';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { maskPydanticUrl, type Tau2Report } from '../../../../src/core/view/tau2/report';
import { requireShared, TAU2_DIR } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';

const VOICE = join(TAU2_DIR, 'voice');

interface ExpectedCall {
  index: number;
  message_index: number;
  id: string;
  name: string;
  requestor: string;
  arguments: unknown;
  known_tool: boolean;
  mutating: boolean;
  tick_id: number;
  output: string | null;
  error: boolean;
  matches_recorded: boolean | null;
}
interface ExpectedSim {
  simulation_id: string;
  task_id: string;
  communication_mode: string;
  premature: boolean;
  reward: number;
  reward_basis: string[] | null;
  reward_breakdown: Record<string, number> | null;
  db_match: boolean | null;
  db_reward: number | null;
  db_hash: Record<string, string | null> | null;
  initial_db_hash: Record<string, string | null>;
  full_replay: { final_db_hash: { agent: string | null; user: string | null } };
  db_hash_nondeterministic: boolean;
  env_assertions: { met: boolean }[] | null;
  action_checks: { action_match: boolean; tool_type: string | null }[] | null;
  communicate_checks: { info: string; met: boolean; justification: string }[] | null;
  tool_calls: ExpectedCall[];
}

/** The gold hashes of every text simulation τ²'s records hold, by simulation id (a voice simulation names its source). */
function goldBySimulation(): Map<string, { gold_agent: string | null; gold_user: string | null }> {
  const out = new Map<string, { gold_agent: string | null; gold_user: string | null }>();
  for (const f of readdirSync(join(TAU2_DIR, 'expected'))) {
    const x = JSON.parse(readFileSync(join(TAU2_DIR, 'expected', f), 'utf8')) as { simulations: ExpectedSim[] };
    for (const s of x.simulations) if (s.db_hash) out.set(s.simulation_id, { gold_agent: s.db_hash.gold_agent!, gold_user: s.db_hash.gold_user! });
  }
  return out;
}

const calls = (cs: readonly (ExpectedCall | Tau2Report['tool_calls'][number])[]) =>
  cs.map((c) => ({
    index: c.index,
    message_index: c.message_index,
    id: c.id,
    name: c.name,
    requestor: c.requestor,
    arguments: c.arguments,
    known_tool: c.known_tool,
    mutating: c.mutating,
    tick_id: c.tick_id,
    output: c.output === null ? null : maskPydanticUrl(c.output),
    error: c.error,
    matches_recorded: c.matches_recorded,
  }));

const FIELDS = ['reward', 'db', 'hashes', 'env_assertions', 'action_checks', 'communicate_checks', 'tool_calls'] as const;

function pair(r: Tau2Report, x: ExpectedSim, gold: { gold_agent: string | null; gold_user: string | null } | undefined) {
  const got = {
    reward: [r.simulation_id, r.premature, r.reward, r.reward_basis, r.reward_breakdown, r.error],
    db: [r.db_match, r.db_reward, r.db_hash_nondeterministic],
    hashes: {
      initial: r.initial_db_hash,
      predicted: r.db_hash && { agent: r.db_hash.predicted_agent, user: r.db_hash.predicted_user },
      gold: r.db_hash && { gold_agent: r.db_hash.gold_agent, gold_user: r.db_hash.gold_user },
    },
    env_assertions: r.env_assertions?.map((c) => c.met) ?? null,
    action_checks: r.action_checks?.map((c) => [c.action_match, c.tool_type]) ?? null,
    communicate_checks: r.communicate_checks,
    tool_calls: calls(r.tool_calls),
  };
  const want = {
    reward: [x.simulation_id, x.premature, x.reward, x.reward_basis, x.reward_breakdown, null],
    db: [x.db_match, x.db_reward, x.db_hash_nondeterministic],
    hashes: {
      initial: x.initial_db_hash,
      // τ²'s voice records keep no db_hash: the predicted DB is the full replay's final DB (as in every text record).
      predicted: r.db_hash && x.full_replay.final_db_hash,
      gold: r.db_hash && (gold ?? 'no text record of the source simulation'),
    },
    env_assertions: x.env_assertions?.map((c) => c.met) ?? null,
    action_checks: x.action_checks?.map((c) => [c.action_match, c.tool_type]) ?? null,
    communicate_checks: x.communicate_checks,
    tool_calls: calls(x.tool_calls),
  };
  return { got, want };
}

const runDirs = (): string[] => (existsSync(join(VOICE, 'runs')) ? readdirSync(join(VOICE, 'runs')).sort() : []);

if (!existsSync(join(VOICE, 'runs')) || !existsSync(join(VOICE, 'expected')) || !existsSync(join(TAU2_DIR, 'data')))
  describe('full-duplex (voice) parity with τ²’s own evaluator', () => {
    (requireShared ? it : it.skip)('needs ../shared/tau2/voice and ../shared/tau2/data', () => {
      throw new Error(`REQUIRE_SHARED=1: ${VOICE} (runs/, expected/) or ${join(TAU2_DIR, 'data')} is missing`);
    });
  });
else
  describe('full-duplex (voice) parity with τ²’s own evaluator', () => {
    let gold: ReturnType<typeof goldBySimulation>;
    const totals = { simulations: 0, calls: 0, communicate: 0 };
    beforeAll(() => {
      gold = goldBySimulation();
    });
    for (const dir of runDirs()) {
      const expected = JSON.parse(readFileSync(join(VOICE, 'expected', `${dir}.expected.json`), 'utf8')) as { simulations: ExpectedSim[] };
      const n = expected.simulations.length;
      let session: Tau2Session;
      beforeAll(async () => {
        const sims = join(VOICE, 'runs', dir, 'simulations');
        const files = readdirSync(sims)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((name) => ({ name, text: readFileSync(join(sims, name), 'utf8') }));
        session = await Tau2Session.open(readTau2Folder(readFileSync(join(VOICE, 'runs', dir, 'results.json'), 'utf8'), files), tau2Read);
      });
      it(`${dir}: ${n} of ${n} full-duplex simulations (reward, DB check, hashes, every check, every tool output with its tick)`, () => {
        expect(session.size).toBe(n);
        expect(expected.simulations.every((x) => x.communication_mode === 'full_duplex')).toBe(true);
        const agree = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<(typeof FIELDS)[number], number>;
        const failed: number[] = [];
        const byId = new Map(Array.from({ length: n }, (_, i) => [session.report(i).simulation_id, i]));
        for (const x of expected.simulations) {
          const i = byId.get(x.simulation_id);
          expect(i, `simulation ${x.simulation_id} is in the run folder`).toBeDefined();
          const source = session.run.simulations[i!]!.raw.get('info') as Map<string, unknown>;
          const { got, want } = pair(session.report(i!), x, gold.get(String(source.get('corpus_source_simulation'))));
          for (const f of FIELDS) if (JSON.stringify(got[f]) === JSON.stringify(want[f])) agree[f]++;
          if (JSON.stringify(got) !== JSON.stringify(want)) failed.push(i!);
          totals.calls += x.tool_calls.length;
          totals.communicate += x.communicate_checks?.length ?? 0;
        }
        totals.simulations += n;
        for (const i of failed.slice(0, 3)) {
          const x = expected.simulations.find((s) => s.simulation_id === session.report(i).simulation_id)!;
          const source = session.run.simulations[i]!.raw.get('info') as Map<string, unknown>;
          const { got, want } = pair(session.report(i), x, gold.get(String(source.get('corpus_source_simulation'))));
          expect(got, `simulation ${i}`).toEqual(want);
        }
        expect(agree, `fields agreeing with τ²'s records, of ${n} simulations`).toEqual(Object.fromEntries(FIELDS.map((f) => [f, n])));
        expect(failed).toEqual([]);
        // Every tool call carries the tick it was made in.
        for (let i = 0; i < n; i++) expect(session.report(i).tool_calls.every((c) => typeof c.tick_id === 'number')).toBe(true);
      });
    }
    it('all of them: 82 simulations, each of their tool calls and communicate checks compared', () => {
      expect(totals.simulations).toBe(82);
      expect(totals.calls).toBeGreaterThan(0);
      expect(totals.communicate).toBeGreaterThan(0);
    });
  });
