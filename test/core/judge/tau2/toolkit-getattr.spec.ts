/**
 * Issue #35 class 3: env assertions and initialization actions are `getattr(toolkit, func_name)(**arguments)` in τ²:
 * every method of the toolkit's class and of ToolKitBase answers, not only the tools and the domain's assertion
 * functions. An assertion calling `has_tool` scored 0.0 with "'MockTools' object has no attribute 'has_tool'";
 * τ² gives 1.0. What each ToolKitBase method returns (and raises) is τ²'s (environment/toolkit.py).
 */
import { describe, expect, it } from 'vitest';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

type Assertion = { env_type: string; func_name: string; arguments: Record<string, unknown>; assert_value?: unknown };
/** finish_desks (simulation 0 passed it) with its env assertions replaced. */
const withAssertions = (...assertions: Assertion[]) =>
  mockSample((run: SampleRun) => {
    (run.tasks[0]!.evaluation_criteria as Record<string, unknown>).env_assertions = assertions;
  });
const a = (func_name: string, args: Record<string, unknown> = {}, more: Partial<Assertion> = {}): Assertion => ({
  env_type: 'assistant',
  func_name,
  arguments: args,
  ...more,
});

describe('env assertions resolved as getattr resolves them on the toolkit', () => {
  it('has_tool, tool_mutates_state, is_discoverable, has_discoverable_tool: ToolKitBase’s answers, so the verdict is τ²’s 1.0', async () => {
    const s = await withAssertions(
      a('has_tool', { tool_name: 'create_task' }),
      a('has_tool', { tool_name: 'nope' }, { assert_value: false }),
      a('tool_mutates_state', { tool_name: 'update_task_status' }),
      a('tool_mutates_state', { tool_name: 'get_users' }, { assert_value: false }),
      a('is_discoverable', { tool_name: 'create_task' }, { assert_value: false }),
      a('has_discoverable_tool', { tool_name: 'create_task' }, { assert_value: false }),
      { env_type: 'user', func_name: 'has_tool', arguments: { tool_name: 'dismiss_notification' } },
    );
    const r = s.report(0);
    expect(r).toMatchObject({ reward: 1, error: null });
    expect(r.env_assertions!.map((x) => x.met)).toEqual([true, true, true, true, true, true, true]);
  });

  it('methods that return no bool, or raise, stop the evaluation with τ²’s words (a ValueError, KeyError or TypeError, not an AttributeError)', async () => {
    const cases: [Assertion, string][] = [
      [a('tool_type', { tool_name: 'create_task' }), "ValueError: Function tool_type returned <enum 'ToolType'> instead of bool"],
      [a('get_statistics'), "ValueError: Function get_statistics returned <class 'dict'> instead of bool"],
      [a('get_db_hash'), "ValueError: Function get_db_hash returned <class 'str'> instead of bool"],
      [a('get_tools'), "ValueError: Function get_tools returned <class 'dict'> instead of bool"],
      [
        a('get_tools', { include: ['nope'] }),
        "ValueError: Tool(s) not found: ['nope']. Available: ['create_task', 'get_users', 'transfer_to_human_agents', 'update_task_status']",
      ],
      [a('tool_type', { tool_name: 'nope' }), "KeyError: 'nope'"],
      [a('has_tool'), "TypeError: ToolKitBase.has_tool() missing 1 required positional argument: 'tool_name'"],
      [a('has_tool', { tool_name: ['x'] }), "TypeError: unhashable type: 'list'"],
      [a('use_tool', { tool_name: 'nope' }), "ValueError: Tool 'nope' not found."],
      [a('tools'), "TypeError: 'dict' object is not callable"],
      [a('db'), "TypeError: 'MockDB' object is not callable"],
      [a('no_such_method'), "AttributeError: 'MockTools' object has no attribute 'no_such_method'"],
    ];
    for (const [assertion, error] of cases) {
      const r = (await withAssertions(assertion)).report(0);
      expect(r.error, assertion.func_name).toBe(error);
      expect(r.reward).toBe(0);
    }
  });

  it('use_tool runs the tool (its answer is no bool); a dunder or a helper τ² has and this port does not says so rather than giving a false AttributeError', async () => {
    const use = (await withAssertions(a('use_tool', { tool_name: 'get_users' }))).report(0);
    expect(use.error).toBe("ValueError: Function use_tool returned <class 'list'> instead of bool");
    const dunder = (await withAssertions(a('__init__'))).report(0);
    expect(dunder.error).toMatch(/MockTools\.__init__ is an attribute of τ²'s toolkit that tau-inspect does not emulate/);
  });

  it('an initialization action calling update_db changes the DB as ToolKitBase.update_db does (the task is done before the agent starts)', async () => {
    const s = await mockSample((run) => {
      run.tasks[0]!.initial_state = {
        initialization_actions: [{ env_type: 'assistant', func_name: 'update_db', arguments: { update_data: { tasks: { task_1: { status: 'completed' } } } } }],
      };
    });
    // Simulation 1 of finish_desks failed it (recorded 0.0): with the task completed by initialization, its env assertion holds.
    const r = s.report(1);
    expect(r.error).toBeNull();
    expect(r.env_assertions![0]!.met).toBe(true);
    expect(r.initial_db_hash).not.toEqual((await mockSample()).report(1).initial_db_hash);
  });
});
