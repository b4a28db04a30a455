/**
 * Held-back variants of issue #35 class 10 (τ² tool names that are JavaScript object keys), beyond
 * object-key-names.spec.ts: the rest of Object.prototype's names (`__lookupGetter__`, `__defineSetter__`,
 * `__lookupSetter__`), a function's own keys (`prototype`, `length`, `name`, `call`, `apply`, `bind`, `caller`,
 * `arguments`) and a Symbol-looking or empty name. Python knows none of them on a toolkit: a call replays as
 * "Error: Tool '<name>' not found.", an env assertion or initialization action of that name is getattr's
 * AttributeError, has_tool of it is False.
 */
import { describe, expect, it } from 'vitest';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

const NAMES = [
  '__lookupGetter__',
  '__defineSetter__',
  '__lookupSetter__',
  'prototype',
  'length',
  'name',
  'call',
  'apply',
  'bind',
  'caller',
  'arguments',
  'Symbol(Symbol.iterator)',
  '',
];

type Call = { name: string; requestor?: string; arguments: Record<string, unknown> };
const firstCall = (run: SampleRun, sim = 0): Call =>
  (run.simulations[sim]!.messages as { tool_calls?: Call[] | null }[]).find((m) => m.tool_calls && m.tool_calls.length > 0)!.tool_calls![0]!;

describe('more object-key names on the mock sample', () => {
  it.each(NAMES)('a call of %j replays as τ²’s "Tool not found" error', async (name) => {
    const s = await mockSample((run) => {
      firstCall(run).name = name;
    });
    expect(s.report(0).tool_calls[0]).toMatchObject({ name, known_tool: false, output: `Error: Tool '${name}' not found.`, error: true });
  });

  it.each(NAMES)('an env assertion or initialization action named %j is an AttributeError; has_tool of it is False', async (name) => {
    const assertion = await mockSample((run) => {
      (run.tasks[0]!.evaluation_criteria as Record<string, unknown>).env_assertions = [{ env_type: 'assistant', func_name: name, arguments: {} }];
    });
    expect(assertion.report(0).error).toBe(`AttributeError: 'MockTools' object has no attribute '${name}'`);
    const init = await mockSample((run) => {
      run.tasks[0]!.initial_state = { initialization_actions: [{ env_type: 'user', func_name: name, arguments: {} }] };
    });
    expect(init.report(0).error).toBe(`AttributeError: 'MockUserTools' object has no attribute '${name}'`);
    const has = await mockSample((run) => {
      (run.tasks[0]!.evaluation_criteria as Record<string, unknown>).env_assertions = [
        { env_type: 'assistant', func_name: 'has_tool', arguments: { tool_name: name }, assert_value: false },
      ];
    });
    expect(has.report(0)).toMatchObject({ error: null, reward: 1 });
  });
});
