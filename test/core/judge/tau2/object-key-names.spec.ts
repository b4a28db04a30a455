/**
 * Issue #35 class 10: τ² tool names that are JavaScript object keys (`__proto__`, `constructor`, `hasOwnProperty`,
 * `toString`, `valueOf`, …) answer as τ² answers them: a call replays as "Error: Tool '__proto__' not found.", an env
 * assertion or initialization action of that name is an AttributeError (getattr finds no such attribute on a
 * toolkit), `has_tool` of it is False; every name-keyed table of the port is looked up by own keys only.
 */
import { describe, expect, it } from 'vitest';
import { openTau2Edited } from '../../../support/tau2';
import { describeTau2 } from '../../../support/shared';
import { mockSample, type SampleRun } from '../../../support/tau2-sample';

const NAMES = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
];

type Call = { name: string; requestor?: string; arguments: Record<string, unknown> };
const firstCall = (run: SampleRun | { simulations: Record<string, unknown>[] }, sim = 0): Call =>
  (run.simulations[sim]!.messages as { tool_calls?: Call[] | null }[]).find((m) => m.tool_calls && m.tool_calls.length > 0)!.tool_calls![0]!;

describe('object-key names on the mock sample', () => {
  it.each(NAMES)('a call of %s (agent and user) replays as τ²’s "Tool not found" error', async (name) => {
    for (const [sim, requestor] of [
      [0, 'assistant'],
      [6, 'user'],
    ] as const) {
      const s = await mockSample((run) => {
        const c = firstCall(run, sim);
        c.name = name;
        c.requestor = requestor;
      });
      const r = s.report(sim);
      expect(r.tool_calls[0]).toMatchObject({ name, known_tool: false, output: `Error: Tool '${name}' not found.`, error: true });
    }
  });

  it.each(NAMES)('an env assertion or initialization action named %s is an AttributeError; has_tool(%s) is False', async (name) => {
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

describeTau2('object-key names in every domain of ../shared/tau2', () => {
  it.each([
    'sierra-research__gym-gpt-4.1-airline.json',
    'sierra-research__gym-gpt-4.1-retail.json',
    'sierra-research__gym-gpt-4.1-telecom.json',
    'sierra-research__pr170-e2e-mock-baseline.json',
  ])('%s: each name, as an agent call, replays as "Tool not found"', async (file) => {
    for (const name of NAMES) {
      const s = await openTau2Edited(file, (run) => {
        firstCall(run).name = name;
        run.simulations = [run.simulations[0]!];
      });
      expect(s.report(0).tool_calls[0]?.output, `${file} ${name}`).toBe(`Error: Tool '${name}' not found.`);
    }
  });
});
