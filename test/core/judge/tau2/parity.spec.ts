/**
 * τ² parity: every simulation of every results file in ../shared/tau2/runs re-judged and compared
 * with τ²'s own records (../shared/tau2/expected): reward, DB check and its four hashes, every check
 * list, every tool output (the pydantic version in help URLs masked). Domains not ported yet must
 * be refused by name, never judged wrongly.
 */
import { beforeAll, expect, it } from 'vitest';
import { TAU2_DOMAINS } from '../../../../src/core/model/domains/tau2/registry';
import { maskPydanticUrl, type Tau2Report } from '../../../../src/core/view/tau2/report';
import type { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2 } from '../../../support/shared';
import { openTau2, tau2Expected, tau2RunFiles } from '../../../support/tau2';

interface ExpectedSim {
  simulation_id: string;
  reward: number;
  db_match: boolean | null;
  db_hash: Record<string, string | null> | null;
  initial_db_hash: Record<string, string | null>;
  db_hash_nondeterministic: boolean;
  env_assertions: { met: boolean }[] | null;
  action_checks: { action_match: boolean }[] | null;
  communicate_checks: { met: boolean }[] | null;
  tool_calls: { name: string; output: string | null; error: boolean; known_tool: boolean; mutating: boolean }[];
}

/** What a report must equal, in the expected record's terms. */
function comparable(r: Tau2Report) {
  return {
    simulation_id: r.simulation_id,
    reward: r.reward,
    db_match: r.db_match,
    db_hash: r.db_hash,
    initial_db_hash: r.initial_db_hash,
    db_hash_nondeterministic: r.db_hash_nondeterministic,
    env_assertions: r.env_assertions?.map((c) => c.met) ?? null,
    action_checks: r.action_checks?.map((c) => c.action_match) ?? null,
    communicate_checks: r.communicate_checks?.map((c) => c.met) ?? null,
    tool_calls: r.tool_calls.map((c) => ({
      name: c.name,
      output: c.output === null ? null : maskPydanticUrl(c.output),
      error: c.error,
      known_tool: c.known_tool,
      mutating: c.mutating,
    })),
  };
}

function expectedOf(x: ExpectedSim) {
  return {
    simulation_id: x.simulation_id,
    reward: x.reward,
    db_match: x.db_match,
    db_hash: x.db_hash,
    initial_db_hash: x.initial_db_hash,
    db_hash_nondeterministic: x.db_hash_nondeterministic,
    env_assertions: x.env_assertions?.map((c) => c.met) ?? null,
    action_checks: x.action_checks?.map((c) => c.action_match) ?? null,
    communicate_checks: x.communicate_checks?.map((c) => c.met) ?? null,
    tool_calls: x.tool_calls.map((c) => ({
      name: c.name,
      output: c.output === null ? null : maskPydanticUrl(c.output),
      error: c.error,
      known_tool: c.known_tool,
      mutating: c.mutating,
    })),
  };
}

describeTau2('τ² parity with τ²’s own evaluator', () => {
  for (const file of tau2RunFiles()) {
    const expected = tau2Expected(file);
    const n = expected.simulations.length;
    const calls = expected.simulations.reduce((s, x) => s + (x as unknown as ExpectedSim).tool_calls.length, 0);
    if (!TAU2_DOMAINS.has(expected.domain)) {
      it(`${file}: ${expected.domain} is not ported yet and is refused by name`, async () => {
        await expect(openTau2(file)).rejects.toThrow(`the τ² domain '${expected.domain}' is not ported yet`);
      });
      continue;
    }
    let session: Tau2Session;
    beforeAll(async () => {
      session = await openTau2(file);
    });
    it(`${file}: ${n} of ${n} simulations, ${calls} of ${calls} tool outputs`, () => {
      expect(session.size).toBe(n);
      for (let i = 0; i < n; i++)
        expect(comparable(session.report(i)), `simulation ${i}`).toEqual(expectedOf(expected.simulations[i] as unknown as ExpectedSim));
    });
  }
});
