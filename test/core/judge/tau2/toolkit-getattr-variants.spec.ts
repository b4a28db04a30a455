/**
 * Held-back variants of issue #35 class 3 (env assertions resolved as τ²'s `getattr(toolkit, func_name)(**arguments)`),
 * beyond toolkit-getattr.spec.ts: `assert_value` given as pydantic's lax bools (1, "yes", "off"), a tool name that is
 * a number or null (`name in self.tools` is plainly False), an argument the method does not take (CPython's binding
 * error), and an agent tool asked of the user's toolkit (getattr finds nothing there).
 */
import { describe, expect, it } from 'vitest';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

type Assertion = { env_type: string; func_name: string; arguments: Record<string, unknown>; assert_value?: unknown };
/** finish_desks (simulation 0 passed it) with its env assertions replaced. */
const withAssertions = (...assertions: Assertion[]) =>
  mockSample((run: SampleRun) => {
    (run.tasks[0]!.evaluation_criteria as Record<string, unknown>).env_assertions = assertions;
  });

describe('more env assertions on the toolkit, as τ² runs them', () => {
  it('assert_value in pydantic’s lax bools: 1 and "yes" are True, "off" is False; the verdict is 1.0', async () => {
    const r = (
      await withAssertions(
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 'create_task' }, assert_value: 1 },
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 'create_task' }, assert_value: 'yes' },
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 'nope' }, assert_value: 'off' },
      )
    ).report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.env_assertions!.map((x) => x.met)).toEqual([true, true, true]);
  });

  it('has_tool of a number or of null is False (no error): met when False is asserted', async () => {
    const r = (
      await withAssertions(
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 5 }, assert_value: false },
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: null }, assert_value: false },
      )
    ).report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
  });

  it('an argument the method does not take, and an agent tool asked of the user’s toolkit, stop the evaluation in τ²’s words', async () => {
    const extra = (await withAssertions({ env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: 'create_task', x: 1 } })).report(0);
    expect(extra.error).toBe("TypeError: ToolKitBase.has_tool() got an unexpected keyword argument 'x'");
    expect(extra.reward).toBe(0);
    const user = (await withAssertions({ env_type: 'user', func_name: 'update_task_status', arguments: { task_id: 'task_1', status: 'completed' } })).report(0);
    expect(user.error).toBe("AttributeError: 'MockUserTools' object has no attribute 'update_task_status'");
  });
});
