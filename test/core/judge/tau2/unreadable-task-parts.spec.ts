/**
 * Issue #35 class 1: no verdict from a task part that could not be read as τ² reads it. A task whose
 * evaluation_criteria, actions, env_assertions, communicate_info, nl_assertions, initial_state or
 * initialization_actions has a shape τ²'s pydantic models refuse was judged as if that part were absent
 * (`evaluation_criteria: "x"` gave 1.0 where the agent created the wrong task). Now that task's simulations are
 * not evaluable, with the field and pydantic's message; the other simulations keep their verdicts, marked
 * "τ² would refuse this file" (τ² loads none of it). Which parts block is derived from the models
 * (tau2-models.ts), checked here field by field.
 */
import { describe, expect, it } from 'vitest';
import { tau2Summary } from '../../../../src/core/contract';
import { TAU2_UNREADABLE } from '../../../../src/core/judge/tau2/evaluate';
import { TaskModel } from '../../../../src/core/model/episode/tau2/models';
import { taskRefusals } from '../../../../src/core/model/episode/tau2/refusals';
import { TAU2_WOULD_REFUSE } from '../../../../src/core/view/tau2/summary';
import { parseJson } from '../../../../src/core/py/json-parse';
import type { TValue } from '../../../../src/core/py/pydantic';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

/** Simulation 4: offsite_for_bram, the agent created the wrong task (recorded 0.0). Simulation 0: finish_desks, passed. */
const WRONG_TASK = 4;
const taskOf = (run: SampleRun, id: string) => run.tasks.find((t) => t.id === id)!;
const criteriaOf = (run: SampleRun, id: string) => taskOf(run, id).evaluation_criteria as Record<string, unknown>;

describe('a task part τ² cannot read gives no verdict', () => {
  it('evaluation_criteria "x": the wrong task is no longer 1.0 "ok"; it is not evaluable, with the field and pydantic’s message', async () => {
    const before = await mockSample();
    expect(before.report(WRONG_TASK)).toMatchObject({ reward: 0, error: null, tau2_would_refuse: null });
    const s = await mockSample((run) => (taskOf(run, 'offsite_for_bram').evaluation_criteria = 'x'));
    const r = s.report(WRONG_TASK);
    expect(r).toMatchObject({ reward: 0, db_match: null, reward_breakdown: null });
    expect(r.error).toBe(`${TAU2_UNREADABLE}tasks.1.evaluation_criteria: Input should be an object [type=model_type, input_value='x', input_type=str]`);
    const row = tau2Summary(r);
    expect(row.reward).toBeNull();
    expect(row.error).toBe(r.error);
    // Another task's simulation keeps its verdict, marked with what τ² refuses in the file.
    const other = s.report(0);
    expect(other).toMatchObject({ reward: 1, error: null, tau2_would_refuse: r.error!.slice(TAU2_UNREADABLE.length) });
    expect(tau2Summary(other).reasonTexts).toContain(`${TAU2_WOULD_REFUSE}${other.tau2_would_refuse}`);
    expect(tau2Summary(other).tau2?.wouldRefuse).toBe(other.tau2_would_refuse);
  });

  it.each([
    [
      'env_assertions as a dict',
      'finish_desks',
      0,
      (c: Record<string, unknown>): unknown => (c.env_assertions = { a: 1 }),
      'evaluation_criteria.env_assertions: Input should be a valid array [type=list_type',
    ],
    [
      'actions as a dict',
      'finish_desks',
      0,
      (c: Record<string, unknown>): unknown => (c.actions = { name: 'x' }),
      'evaluation_criteria.actions: Input should be a valid array',
    ],
    [
      'an action that is a string',
      'finish_desks',
      0,
      (c: Record<string, unknown>): unknown => (c.actions = ['update_task_status']),
      'evaluation_criteria.actions.0: Input should be an object [type=model_type',
    ],
    [
      'communicate_info as a string',
      WRONG_TASK,
      WRONG_TASK,
      (c: Record<string, unknown>): unknown => (c.communicate_info = 'task_3'),
      'evaluation_criteria.communicate_info: Input should be a valid array',
    ],
    [
      'communicate_info holding a number',
      WRONG_TASK,
      WRONG_TASK,
      (c: Record<string, unknown>): unknown => (c.communicate_info = [3]),
      'evaluation_criteria.communicate_info.0: Input should be a valid string [type=string_type, input_value=3, input_type=int]',
    ],
    [
      'nl_assertions as a string',
      'finish_desks',
      0,
      (c: Record<string, unknown>): unknown => (c.nl_assertions = 'x'),
      'evaluation_criteria.nl_assertions: Input should be a valid array',
    ],
    [
      'a reward basis naming no reward type',
      'finish_desks',
      0,
      (c: Record<string, unknown>): unknown => (c.reward_basis = ['DB', 'db']),
      "evaluation_criteria.reward_basis.1: Input should be 'DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION' or 'COMMUNICATE' [type=enum",
    ],
  ] as const)('%s: not evaluable, said where', async (_what, task, index, edit, said) => {
    const id = typeof task === 'number' ? 'offsite_for_bram' : task;
    const s = await mockSample((run) => edit(criteriaOf(run, id)));
    const r = s.report(index);
    expect(r.reward).toBe(0);
    expect(r.env_assertions).toBeNull();
    expect(r.error).toMatch(new RegExp(`^${escape(TAU2_UNREADABLE)}tasks\\.\\d\\.${escape(said)}`));
  });

  it('initial_state and initialization_actions of the wrong shape: not evaluable (the initialization is not skipped without a word)', async () => {
    for (const [state, said] of [
      ['x', "initial_state: Input should be an object [type=model_type, input_value='x', input_type=str]"],
      [{ initialization_actions: { env_type: 'assistant' } }, 'initial_state.initialization_actions: Input should be a valid array [type=list_type'],
      [
        { initialization_actions: [{ env_type: 'assistant', func_name: 'f' }] },
        'initial_state.initialization_actions.0.arguments: Field required [type=missing',
      ],
      [{ initialization_data: { agent_data: [1] } }, 'initial_state.initialization_data.agent_data: Input should be an object [type=dict_type'],
      [{ message_history: 'x' }, 'initial_state.message_history: Input should be a valid array'],
    ] as const) {
      const s = await mockSample((run) => (taskOf(run, 'finish_desks').initial_state = state));
      expect(s.report(0).error, JSON.stringify(state)).toMatch(new RegExp(`^${escape(TAU2_UNREADABLE)}tasks\\.0\\.${escape(said)}`));
    }
  });

  it('a task field no verdict reads (user_scenario missing, description a string, issues a dict): the verdicts stand, marked', async () => {
    for (const [edit, said] of [
      [(t: Record<string, unknown>): unknown => delete t.user_scenario, 'tasks.0.user_scenario: Field required [type=missing'],
      [
        (t: Record<string, unknown>): unknown => (t.description = 'x'),
        "tasks.0.description: Input should be an object [type=model_type, input_value='x', input_type=str]",
      ],
      [(t: Record<string, unknown>): unknown => (t.issues = {}), 'tasks.0.issues: Input should be a valid array'],
      [(t: Record<string, unknown>): unknown => (t.required_documents = [1]), 'tasks.0.required_documents.0: Input should be a valid string'],
    ] as const) {
      const s = await mockSample((run) => edit(taskOf(run, 'finish_desks')));
      const r = s.report(0);
      expect(r, said).toMatchObject({ reward: 1, error: null });
      expect(r.tau2_would_refuse).toMatch(new RegExp(`^${escape(said)}`));
      expect(s.report(WRONG_TASK)).toMatchObject({ reward: 0, error: null, tau2_would_refuse: r.tau2_would_refuse });
    }
  });

  it('derived from the models: every field of Task refused by a wrong type blocks exactly when the verdict reads it (id, evaluation_criteria, initial_state)', () => {
    const task = parseJson(
      '{"id": "t", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": []}, "initial_state": {}, "description": {}, "issues": [], "ticket": "x", "required_documents": [], "user_tools": []}',
    ) as TValue;
    const read = new Set(['id', 'evaluation_criteria', 'initial_state']);
    expect(taskRefusals(task, 0, 'json')).toEqual({ blocking: null, nl: null, other: null });
    for (const f of TaskModel.fields) {
      const edited = new Map(task as Map<string, TValue>);
      edited.set(f.name, 12345n);
      const r = taskRefusals(edited, 0, 'json');
      const line = `tasks.0.${f.name}: `;
      if (read.has(f.name)) expect(r.blocking, f.name).toMatch(new RegExp(`^${escape(line)}`));
      else expect([r.blocking, r.other], f.name).toEqual([null, expect.stringMatching(new RegExp(`^${escape(line)}`))]);
    }
  });
});

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
