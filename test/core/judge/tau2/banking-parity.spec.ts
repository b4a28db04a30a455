/**
 * banking_knowledge parity: every simulation of ../shared/tau2/banking/runs re-judged and compared with τ²'s own
 * records (../shared/tau2/banking/expected): reward, DB check and its four hashes, the initial hashes, every action
 * check, and every replayed tool output (retrieval calls excepted: τ² never replays them). An unlock or give answer
 * quotes τ²'s docstrings, which tau-inspect does not carry: there every other part of the replayed answer must agree
 * with the recorded one (`output_quotes_docstring: 'recorded'`) and τ²'s own replay must equal the recorded one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TAU2_PINNED_COMMIT } from '../../../../src/core/model/data/tau2/data';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import type { Tau2Report } from '../../../../src/core/view/tau2/report';
import { describeTau2, requireShared, TAU2_DIR } from '../../../support/shared';
import { tau2Read } from '../../../support/tau2';

const BANKING = join(TAU2_DIR, 'banking');

interface ExpectedCall {
  name: string;
  matches_recorded?: boolean | null;
  output: string | null;
  error: boolean | null;
  known_tool: boolean;
  mutating: boolean | null;
  output_unavailable?: string;
}
interface ExpectedSim {
  simulation_id: string;
  reward: number;
  db_match: boolean | null;
  db_hash: Record<string, string | null> | null;
  initial_db_hash: Record<string, string | null>;
  action_checks: { action_match: boolean; tool_type: string | null }[] | null;
  env_kwargs: { read_log_allowlist: string[] };
  tool_calls: ExpectedCall[];
}

const callOf = (c: { name: string; output: string | null; error: boolean | null; known_tool: boolean; mutating: boolean | null }, retrieval: boolean) => ({
  name: c.name,
  known_tool: c.known_tool,
  mutating: c.mutating,
  ...(retrieval ? { retrieval: true } : { output: c.output, error: c.error }),
});

/** Ours and τ²'s record side by side; a call whose answer quotes τ²'s docstrings is compared by what can be replayed of it. */
function pairOf(r: Tau2Report, x: ExpectedSim) {
  const quoted = new Set(r.tool_calls.filter((c) => c.output_quotes_docstring !== undefined).map((c) => c.index));
  const got = {
    simulation_id: r.simulation_id,
    reward: r.reward,
    db_match: r.db_match,
    db_hash: r.db_hash,
    initial_db_hash: r.initial_db_hash,
    action_checks: r.action_checks?.map((c) => [c.action_match, c.tool_type]) ?? null,
    tool_calls: r.tool_calls.map((c) =>
      quoted.has(c.index) ? { name: c.name, error: c.error, docstring: c.output_quotes_docstring } : callOf(c, c.output_unavailable !== undefined),
    ),
  };
  const want = {
    simulation_id: x.simulation_id,
    reward: x.reward,
    db_match: x.db_match,
    db_hash: x.db_hash,
    initial_db_hash: x.initial_db_hash,
    action_checks: x.action_checks?.map((c) => [c.action_match, c.tool_type]) ?? null,
    tool_calls: x.tool_calls.map((c, i) =>
      quoted.has(i)
        ? { name: c.name, error: c.error, docstring: c.matches_recorded === true ? 'recorded' : 'differs' }
        : callOf(c, c.output_unavailable !== undefined),
    ),
  };
  return { got, want, quoted: quoted.size };
}

const runFiles = (): string[] =>
  readdirSync(join(BANKING, 'runs'))
    .filter((f) => f.endsWith('.json'))
    .sort();

const FIELDS = ['reward', 'db_match', 'db_hash', 'initial_db_hash', 'action_checks', 'tool_calls'] as const;

if (!existsSync(join(BANKING, 'runs')) || !existsSync(join(BANKING, 'expected')))
  describe('banking_knowledge parity with τ²’s own evaluator', () => {
    (requireShared ? it : it.skip)('needs ../shared/tau2/banking', () => {
      throw new Error(`REQUIRE_SHARED=1: ${BANKING} (runs/, expected/) is missing`);
    });
  });
else
  describeTau2('banking_knowledge parity with τ²’s own evaluator', () => {
    for (const file of runFiles()) {
      const expected = JSON.parse(readFileSync(join(BANKING, 'expected', file.replace(/\.json$/, '.expected.json')), 'utf8')) as { simulations: ExpectedSim[] };
      const n = expected.simulations.length;
      let session: Tau2Session;
      beforeAll(async () => {
        session = await Tau2Session.open(Tau2Session.read(readFileSync(join(BANKING, 'runs', file), 'utf8')), tau2Read);
      });
      it(`${file}: ${n} of ${n} simulations (reward, db_match, hashes, action checks, replayed outputs)`, () => {
        expect(session.size).toBe(n);
        // Per field: how many simulations agree with τ²'s record (every one must).
        const agree = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<(typeof FIELDS)[number], number>;
        const failed: number[] = [];
        let outputs = 0;
        let quoted = 0;
        for (let i = 0; i < n; i++) {
          const pair = pairOf(session.report(i), expected.simulations[i]!);
          const { got, want } = pair;
          outputs += want.tool_calls.filter((c) => 'output' in c).length;
          quoted += pair.quoted;
          for (const f of FIELDS) if (JSON.stringify(got[f]) === JSON.stringify(want[f])) agree[f]++;
          if (JSON.stringify(got) !== JSON.stringify(want)) failed.push(i);
        }
        for (const i of failed.slice(0, 3)) {
          const { got, want } = pairOf(session.report(i), expected.simulations[i]!);
          expect(got, `simulation ${i}`).toEqual(want);
        }
        expect(
          agree,
          `fields agreeing with τ²'s records, of ${n} simulations (${outputs} replayed outputs compared, ${quoted} answers quoting τ²'s docstrings compared around them)`,
        ).toEqual(Object.fromEntries(FIELDS.map((f) => [f, n])));
        // The docstring-quoting answers are there to be compared (1,037 unlock and give answers in the shared run).
        expect(quoted).toBeGreaterThan(0);
        expect(failed).toEqual([]);
      });
      it(`${file}: retrieved documents are opened from the data and lined up with the task's required_documents`, async () => {
        const ok = [...Array(n).keys()].find((i) => session.report(i).reward === 1 && session.evaluate(i).toolCalls.some((c) => c.retrieval))!;
        const view = await session.retrieval(ok);
        const docs = view.calls.flatMap((c) => c.documents);
        expect(docs.length).toBeGreaterThan(0);
        for (const d of docs) {
          const raw = JSON.parse(
            readFileSync(join(TAU2_DIR, 'data', TAU2_PINNED_COMMIT, 'data/tau2/domains/banking_knowledge/documents', `${d.id}.json`), 'utf8'),
          );
          expect(d.doc).toEqual({ id: d.id, title: raw.title, content: raw.content });
        }
        const failedNone = [...Array(n).keys()].find((i) => {
          const e = session.evaluate(i);
          return !e.premature && e.reward === 0 && (e.requiredDocuments?.length ?? 0) > 0 && !e.toolCalls.some((c) => c.retrieval);
        })!;
        expect(session.report(failedNone).findings.find((f) => f.kind === 'required-documents')?.text).toMatch(
          /^The agent never retrieved any of the documents the task requires: doc_/,
        );
        expect(session.report(ok).findings.some((f) => f.kind === 'required-documents')).toBe(false);
      });
    }
    it('task_102 (DB and NL_ASSERTION): the NL verdict is taken from the file as recorded, and said so', async () => {
      const dir = join(TAU2_DIR, 'data', TAU2_PINNED_COMMIT, 'data/tau2/domains/banking_knowledge/tasks');
      const taskText = readFileSync(join(dir, 'task_102.json'), 'utf8');
      const task = JSON.parse(taskText) as {
        evaluation_criteria: { actions: { requestor: string; name: string; arguments: unknown }[]; nl_assertions: string[] };
      };
      // The gold actions as the simulation's calls, each answered with what its replay answers (a run made by τ² records
      // those answers; its strict replay at run time raises at any other).
      const messagesWith = (outputs: readonly (string | null)[]) =>
        task.evaluation_criteria.actions.flatMap((a, i) => [
          { role: a.requestor, content: null, tool_calls: [{ id: `g${i}`, name: a.name, arguments: a.arguments, requestor: a.requestor }] },
          { role: 'tool', id: `g${i}`, content: outputs[i] ?? '', requestor: a.requestor },
        ]);
      let messages = messagesWith([]);
      const sim = (id: string, met: boolean) => ({
        id,
        task_id: 'task_102',
        trial: 0,
        start_time: '2026-01-01T00:00:00',
        end_time: '2026-01-01T00:00:01',
        duration: 1,
        termination_reason: 'user_stop',
        messages: [{ role: 'user', content: 'hello' }, ...messages],
        reward_info: {
          reward: met ? 1 : 0,
          nl_assertions: task.evaluation_criteria.nl_assertions.map((x) => ({ nl_assertion: x, met, justification: 'recorded' })),
        },
      });
      const info = {
        git_commit: TAU2_PINNED_COMMIT,
        num_trials: 1,
        max_steps: 10,
        max_errors: 10,
        user_info: { implementation: 'user_simulator' },
        agent_info: { implementation: 'llm_agent' },
        environment_info: { domain_name: 'banking_knowledge', policy: '' },
      };
      const text = () =>
        `{"info": ${JSON.stringify(info)}, "tasks": [${taskText}], "simulations": ${JSON.stringify([sim('met', true), sim('not-met', false)])}}`;
      const unanswered = (await Tau2Session.open(Tau2Session.read(text()), tau2Read)).report(0);
      // Blank answers replay to other outputs: judged leniently (as evaluate-trajs), and said so.
      expect(unanswered.findings.map((f) => f.kind)).toContain('output-differs');
      messages = messagesWith(unanswered.tool_calls.map((c) => c.output));
      const s = await Tau2Session.open(Tau2Session.read(text()), tau2Read);
      const [met, notMet] = [s.report(0), s.report(1)];
      expect(met.db_match).toBe(true);
      expect([met.reward, notMet.reward]).toEqual([1, 0]);
      expect(notMet.nl_assertions?.every((x) => x.recorded && x.met === false)).toBe(true);
      expect(met.findings.find((f) => f.kind === 'nl-recorded')?.text).toMatch(/taken from the file as recorded, not recomputed/);
    });
  });
