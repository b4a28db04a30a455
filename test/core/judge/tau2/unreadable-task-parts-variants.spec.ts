/**
 * Held-back variants of issue #35 class 1 (no verdict from a task part τ² cannot read), beyond
 * unreadable-task-parts.spec.ts: the fields inside an action (arguments not a dict, a requestor τ² does not know,
 * compare_args not a list, a name that is a number), inside an env assertion (an env_type τ² does not know, an
 * assert_value no lax bool reads), and criteria given as a list. Each makes that task's simulations not evaluable,
 * with the field's path and pydantic's message; never a verdict.
 */
import { describe, expect, it } from 'vitest';
import { TAU2_UNREADABLE } from '../../../../src/core/judge/tau2/evaluate';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

const criteria = (run: SampleRun): Record<string, unknown> => run.tasks.find((t) => t.id === 'finish_desks')!.evaluation_criteria as Record<string, unknown>;
const firstAction = (run: SampleRun): Record<string, unknown> => (criteria(run).actions as Record<string, unknown>[])[0]!;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('more task parts τ² cannot read: not evaluable, said where', () => {
  it.each([
    [
      'an action’s arguments as a list',
      (run: SampleRun): unknown => (firstAction(run).arguments = [1]),
      'evaluation_criteria.actions.0.arguments: Input should be an object [type=dict_type',
    ],
    [
      'an action’s requestor "system"',
      (run: SampleRun): unknown => (firstAction(run).requestor = 'system'),
      "evaluation_criteria.actions.0.requestor: Input should be 'user' or 'assistant' [type=literal_error",
    ],
    [
      'an action’s compare_args as text',
      (run: SampleRun): unknown => (firstAction(run).compare_args = 'status'),
      'evaluation_criteria.actions.0.compare_args: Input should be a valid array [type=list_type',
    ],
    [
      'an action’s name as a number',
      (run: SampleRun): unknown => (firstAction(run).name = 7),
      'evaluation_criteria.actions.0.name: Input should be a valid string [type=string_type',
    ],
    [
      'an env assertion for env_type "robot"',
      (run: SampleRun): unknown => ((criteria(run).env_assertions as Record<string, unknown>[])[0]!.env_type = 'robot'),
      "evaluation_criteria.env_assertions.0.env_type: Input should be 'user' or 'assistant' [type=literal_error",
    ],
    [
      'an env assertion whose assert_value is "maybe"',
      (run: SampleRun): unknown => ((criteria(run).env_assertions as Record<string, unknown>[])[0]!.assert_value = 'maybe'),
      'evaluation_criteria.env_assertions.0.assert_value: Input should be a valid boolean, unable to interpret input [type=bool_parsing',
    ],
    [
      'evaluation_criteria as a list',
      (run: SampleRun): unknown => (run.tasks.find((t) => t.id === 'finish_desks')!.evaluation_criteria = []),
      'evaluation_criteria: Input should be an object [type=model_type',
    ],
  ] as const)('%s', async (_what, edit, said) => {
    const s = await mockSample((run) => {
      edit(run);
    });
    const r = s.report(0);
    expect(r.reward).toBe(0);
    expect(r.env_assertions).toBeNull();
    expect(r.error).toMatch(new RegExp(`^${escape(TAU2_UNREADABLE)}tasks\\.0\\.${escape(said)}`));
  });
});
