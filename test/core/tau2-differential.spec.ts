/**
 * Cases found by running mutated τ² results files through τ²'s own Python (v1.0.1, CPython 3.11,
 * pydantic 2.13) and through this port: each expected value is what τ²'s Python gave for the
 * constructed input.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/py/json-parse';
import { validate, type TValue } from '../../src/core/py/pydantic';
import { Tau2Environment } from '../../src/core/env/tau2/environment';
import { MOCK } from '../../src/core/model/domains/tau2/mock';
import { MockDb, MockUserDb } from '../../src/core/model/domains/tau2/mock/models';
import type { Tau2ToolCall } from '../../src/core/model/episode/tau2-types';
import { describeTau2 } from '../support/shared';
import { openTau2Edited } from '../support/tau2';

const args = (json: string) => parseJson(json) as Map<string, TValue>;
const mockEnv = () =>
  new Tau2Environment(
    MOCK,
    {
      agent: validate(MockDb, parseJson('{"tasks": {}, "users": {"user_1": {"user_id": "user_1", "name": "A", "tasks": []}}}') as TValue),
      user: validate(MockUserDb, parseJson('{"notifications": {}}') as TValue),
    },
    false,
  );
const respond = (env: Tau2Environment, name: string, json: string, requestor: Tau2ToolCall['requestor'] = 'assistant') =>
  env.getResponse({ id: 'c', name, arguments: args(json), requestor }).content;

describe('argument names that collide with the parameters of τ²’s own call chain', () => {
  it('`requestor`, `self`, `tool_name` among the arguments: make_tool_call’s CPython binding errors, before the tool is looked up', () => {
    const env = mockEnv();
    expect(respond(env, 'create_task', '{"user_id": "user_1", "title": "x", "requestor": "user", "self": 2}')).toBe(
      "Error: tau2.environment.environment.Environment.make_tool_call() got multiple values for keyword argument 'requestor'",
    );
    expect(respond(env, 'create_task', '{"self": 1, "user_id": "u"}')).toBe("Error: Environment.make_tool_call() got multiple values for argument 'self'");
    expect(respond(env, 'create_task', '{"tool_name": "a", "self": 1}')).toBe(
      "Error: Environment.make_tool_call() got multiple values for argument 'tool_name'",
    );
    expect(respond(env, 'no_tool', '{"self": 1}')).toBe("Error: Environment.make_tool_call() got multiple values for argument 'self'");
    expect(respond(env, 'check_notifications', '{"self": 1}', 'user')).toBe("Error: Environment.make_tool_call() got multiple values for argument 'self'");
    // Any other unknown name reaches the tool's own binding.
    expect(respond(env, 'create_task', '{"title": "x", "user_id": "user_1", "message": 1}')).toBe(
      "Error: MockTools.create_task() got an unexpected keyword argument 'message'",
    );
  });

  it('`self` in an env assertion’s arguments: the bound method says it got it twice', () => {
    const env = mockEnv();
    expect(() =>
      env.runEnvAssertion({
        envType: 'assistant',
        funcName: 'assert_task_status',
        arguments: args('{"self": 1, "task_id": "t", "expected_status": "pending"}'),
        assertValue: true,
        message: null,
        raw: new Map(),
      }),
    ).toThrow("MockTools.assert_task_status() got multiple values for argument 'self'");
  });
});

describe('lookups by an argument of the wrong type', () => {
  it('a list or dict id is unhashable: the dict lookup raises TypeError before "not found"', () => {
    const env = mockEnv();
    expect(respond(env, 'create_task', '{"user_id": [1, 1.0, true], "title": "x"}')).toBe("Error: unhashable type: 'list'");
    expect(respond(env, 'create_task', '{"user_id": {"a": 1}, "title": "x"}')).toBe("Error: unhashable type: 'dict'");
    expect(respond(env, 'update_task_status', '{"task_id": [], "status": "x"}')).toBe("Error: unhashable type: 'list'");
    expect(respond(env, 'dismiss_notification', '{"notification_id": {}}', 'user')).toBe("Error: unhashable type: 'dict'");
    expect(respond(env, 'create_task', '{"user_id": 1.5, "title": "x"}')).toBe('Error: User 1.5 not found');
  });
});

describeTau2('τ²’s evaluator on constructed cases (the mock run as a base)', () => {
  const MOCK_RUN = 'sierra-research__pr170-e2e-mock-baseline.json';

  it('NL_ASSERTION in the basis of a task with no NL assertions scores 1, whatever verdicts the file recorded', async () => {
    const s = await openTau2Edited(MOCK_RUN, (run) => {
      const sim = run.simulations[0]!;
      const task = run.tasks.find((t) => t.id === sim.task_id)!;
      const ec = task.evaluation_criteria as Record<string, unknown>;
      ec.reward_basis = ['NL_ASSERTION', 'DB'];
      ec.nl_assertions = null;
      (sim.reward_info as Record<string, unknown>).nl_assertions = [{ nl_assertion: 'x', met: false, justification: 'j' }];
      run.simulations = [sim];
    });
    expect(s.report(0)).toMatchObject({ reward: 1, reward_breakdown: { DB: 1, NL_ASSERTION: 1 } });
    // With NL assertions on the task, the recorded verdicts stand in for the LLM judge.
    const judged = await openTau2Edited(MOCK_RUN, (run) => {
      const sim = run.simulations[0]!;
      const ec = run.tasks.find((t) => t.id === sim.task_id)!.evaluation_criteria as Record<string, unknown>;
      ec.reward_basis = ['NL_ASSERTION', 'DB'];
      (sim.reward_info as Record<string, unknown>).nl_assertions = [{ nl_assertion: 'x', met: false, justification: 'j' }];
      run.simulations = [sim];
    });
    expect(judged.report(0)).toMatchObject({ reward: 0, reward_breakdown: { DB: 1, NL_ASSERTION: 0 } });
  });
});
