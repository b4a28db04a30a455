/**
 * Cases found by running mutated τ² results files through τ²'s own Python (v1.0.1, CPython 3.11,
 * pydantic 2.13) and through this port: each expected value is what τ²'s Python gave for the
 * constructed input.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../../src/core/py/json-parse';
import { PyException } from '../../../../src/core/py/errors';
import { formatFloat2 } from '../../../../src/core/py/ops';
import { defineModel, field, t, tRepr, validate, type TValue } from '../../../../src/core/py/pydantic';
import { Tau2Environment } from '../../../../src/core/env/tau2/environment';
import { MOCK } from '../../../../src/core/model/domains/tau2/mock';
import { MockDb, MockUserDb } from '../../../../src/core/model/domains/tau2/mock/models';
import type { Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { describeTau2 } from '../../../support/shared';
import { openTau2Edited } from '../../../support/tau2';

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

describe('pydantic 2.13 dates from ISO strings (telecom’s bills and lines)', () => {
  const read = (type: Parameters<typeof field>[1], v: string): string => {
    try {
      const r = validate(defineModel('M', [field('x', type)]), new Map([['x', v]])).get('x')!;
      return tRepr(r);
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      return /\n {2}(.*) \[type=(\w+)/.exec(e.text)!.slice(1).join(' / ');
    }
  };

  it('calendar ranges are checked; a date takes a datetime string with a zero time; a datetime with a time out of range has “extra characters”', () => {
    expect(read(t.date, '2025-02-30')).toBe('Input should be a valid date or datetime, day value is outside expected range / date_from_datetime_parsing');
    expect(read(t.datetime, '2023-02-29')).toBe('Input should be a valid datetime or date, day value is outside expected range / datetime_from_date_parsing');
    expect(read(t.date, '2025-13-01')).toBe(
      'Input should be a valid date or datetime, month value is outside expected range of 1-12 / date_from_datetime_parsing',
    );
    expect(read(t.date, '2024-02-29')).toBe('datetime.date(2024, 2, 29)');
    expect(read(t.date, '2025-03-01T00:00:00')).toBe('datetime.date(2025, 3, 1)');
    expect(read(t.date, '2025-03-01 00:00')).toBe('datetime.date(2025, 3, 1)');
    expect(read(t.date, '2025-03-01T10:20')).toBe('Datetimes provided to dates should have zero time - e.g. be exact dates / date_from_datetime_inexact');
    expect(read(t.date, '2025-03-01T24:00:00')).toBe(
      'Input should be a valid date or datetime, hour value is outside expected range of 0-23 / date_from_datetime_parsing',
    );
    expect(read(t.datetime, '2025-03-01T24:00:00')).toBe(
      'Input should be a valid datetime or date, unexpected extra characters at the end of the input / datetime_from_date_parsing',
    );
  });
});

describe("format(x, '.2f') of a float (telecom's refuel charge, speed test)", () => {
  it('inf and nan as Python spells them, every digit past 1e21, ties to even, the sign of a negative zero', () => {
    expect([Infinity, -Infinity, NaN, 1e22, 1e23, -0.001, 0.125, 0.375, 2.675, -0, 123456789.005].map(formatFloat2)).toEqual([
      'inf',
      '-inf',
      'nan',
      '10000000000000000000000.00',
      '99999999999999991611392.00',
      '-0.00',
      '0.12',
      '0.38',
      '2.67',
      '-0.00',
      '123456789.00',
    ]);
  });
});

describe('pydantic 2.13 lax parsing of numbers and bools', () => {
  // The value validated into a one-field model, or the error's message and type.
  const lax = (type: Parameters<typeof field>[1], v: TValue): string => {
    try {
      const r = validate(defineModel('M', [field('x', type)]), new Map([['x', v]])).get('x')!;
      return typeof r === 'number' ? `float ${r}` : tRepr(r);
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      return /\n {2}(.*) \[type=(\w+)/.exec(e.text)!.slice(1).join(' / ');
    }
  };

  it('an int from a float: integral and strictly inside i64, else int_parsing_size', () => {
    expect(lax(t.int, 9.223372036854775e18)).toBe('9223372036854774784');
    for (const x of [1e22, -1e22, 2 ** 63, -(2 ** 63), 1e308])
      expect(lax(t.int, x)).toBe('Unable to parse input string as an integer, exceeded maximum size / int_parsing_size');
    expect(lax(t.int, 10n ** 22n)).toBe('10000000000000000000000'); // a Python int of any size is fine
  });

  it('an int from a str: Rust trim (U+0085 yes, U+FEFF no), underscores only between digits, a whole number may end in .000', () => {
    const bad = 'Input should be a valid integer, unable to parse string as an integer / int_parsing';
    expect(['1_000', '\x851', '1\x85', ' 7 ', '1.0', '1.00', '-0'].map((s) => lax(t.int, s))).toEqual(['1000', '1', '1', '7', '1', '1', '0']);
    for (const s of ['_1', '1_', '1__0', '+_1', '1.', '5.', '1.0_0', '\ufeff1', '\x1c1', '1e3', '0x10', '١٢٣']) expect(lax(t.int, s), s).toBe(bad);
  });

  it('a float from a str: the trimmed text, else the untrimmed text with single inner underscores removed', () => {
    expect(['1._5', '+_1', '1e1_0', '1.5e_1', 'i_nf', '1.5_0', '\x851', '1.', '.5', 'INFINITY', '1e400'].map((s) => lax(t.float, s))).toEqual([
      'float 1.5',
      'float 1',
      'float 10000000000',
      'float 15',
      'float Infinity',
      'float 1.5',
      'float 1',
      'float 1',
      'float 0.5',
      'float Infinity',
      'float Infinity',
    ]);
    for (const s of ['1_', '1__0', '_1.5', '1.5_', '\ufeff1', ' 1_0', '1e', '../..'])
      expect(lax(t.float, s), s).toBe('Input should be a valid number, unable to parse string as a number / float_parsing');
  });

  it('a bool from a str is never stripped; a non-0/1 number is bool_parsing only when it is an i64 (or a float equal to one)', () => {
    const parsing = 'Input should be a valid boolean, unable to interpret input / bool_parsing';
    const type = 'Input should be a valid boolean / bool_type';
    expect(['TRUE', 'Y', 'off', '0'].map((s) => lax(t.bool, s))).toEqual(['True', 'True', 'False', 'False']);
    for (const s of [' 1 ', '1 ', '\t1\n', '\xa01']) expect(lax(t.bool, s), s).toBe(parsing);
    expect([2n, 3.0, 9.223372036854775e18].map((x) => lax(t.bool, x))).toEqual([parsing, parsing, parsing]);
    expect([10n ** 20n, 2n ** 63n, 1.5, 0.1, 1e22].map((x) => lax(t.bool, x))).toEqual([type, type, type, type, type]);
  });
});

describeTau2('τ²’s evaluator on constructed cases (the mock run as a base)', () => {
  const MOCK_RUN = 'sierra-research__pr170-e2e-mock-baseline.json';

  /** The outputs of `calls` replayed in order on the task's initial state of the run's first simulation. */
  const replayed = async (file: string, calls: [string, Record<string, unknown>, ('assistant' | 'user')?][]): Promise<(string | null)[]> => {
    const s = await openTau2Edited(file, (run) => {
      const sim = run.simulations.find((x) => x.termination_reason === 'agent_stop' || x.termination_reason === 'user_stop')!;
      sim.messages = calls.flatMap(([name, args, requestor = 'assistant'], i) => [
        { role: requestor, content: null, tool_calls: [{ id: `p${i}`, name, arguments: args, requestor }] },
        { role: 'tool', id: `p${i}`, content: 'x', requestor, error: false },
      ]);
      run.simulations = [sim];
    });
    return s.report(0).tool_calls.map((c) => c.output);
  };

  it('telecom: a bool limit slices as an int; a list or dict app name is unhashable', async () => {
    const out = await replayed('sierra-research__pr170-e2e-telecom-baseline.json', [
      ['get_bills_for_customer', { customer_id: 'C1001', limit: false }],
      ['get_bills_for_customer', { customer_id: 'C1001', limit: true }],
      ['check_app_status', { app_name: ['x'] }, 'user'],
      ['check_app_permissions', { app_name: { a: 1 } }, 'user'],
      ['grant_app_permission', { app_name: ['messaging'], permission: 'sms' }, 'user'],
    ]);
    expect(out[0]).toBe('[]');
    expect(JSON.parse(out[1]!).map((b: { bill_id: string }) => b.bill_id)).toEqual(['B1003']);
    expect(out.slice(2)).toEqual(["Error: unhashable type: 'list'", "Error: unhashable type: 'dict'", "Error: unhashable type: 'list'"]);
  });

  it('telecom network mode: None is stored and reported as a failure; whatever was stored, checking it takes its `.value`', async () => {
    const out = await replayed('sierra-research__pr17-gpt-4o-telecom.json', [
      ['set_network_mode_preference', { mode: null }, 'user'],
      ['check_network_mode_preference', {}, 'user'],
      ['set_network_mode_preference', { mode: 1.5 }, 'user'],
      ['check_network_mode_preference', {}, 'user'],
    ]);
    expect(out[0]).toMatch(
      /^Failed to set network mode: 'None' is not a valid option\. Please use one of: 4g_5g_preferred, 4g_only, 3g_only, 2g_only\nStatus Bar: /,
    );
    expect(out.slice(1)).toEqual([
      "Error: 'NoneType' object has no attribute 'value'",
      "Error: 'float' object has no attribute 'value'",
      "Error: 'float' object has no attribute 'value'",
    ]);
  });

  it('telecom assert_internet_speed compares as Python does: a str expected speed raises TypeError (no verdict)', async () => {
    const s = await openTau2Edited('sierra-research__pr170-e2e-telecom-baseline.json', (run) => {
      const sim = run.simulations[0]!;
      const ec = run.tasks.find((t) => t.id === sim.task_id)!.evaluation_criteria as {
        env_assertions: { func_name: string; arguments: Record<string, unknown> }[];
      };
      ec.env_assertions = [{ ...ec.env_assertions[0]!, func_name: 'assert_internet_speed', arguments: { expected_speed: '200' } }];
      run.simulations = [sim];
    });
    expect(s.report(0)).toMatchObject({ reward: 0, error: "TypeError: '>=' not supported between instances of 'float' and 'str'" });
  });

  it('telecom suspend_line_for_overdue_bill: `if contract_ended:` is Python truthiness ("100" ends the contract, "" does not)', async () => {
    const endDate = async (flag: unknown): Promise<string> => {
      const s = await openTau2Edited('sierra-research__gym-gpt-4.1-telecom-solo.json', (run) => {
        type Init = { initial_state: { initialization_actions: { func_name: string; arguments: Record<string, unknown> }[] | null } | null; id: string };
        const task = (run.tasks as unknown as Init[]).find((t) =>
          t.initial_state?.initialization_actions?.some((x) => x.func_name === 'suspend_line_for_overdue_bill'),
        )!;
        task.initial_state!.initialization_actions!.find((x) => x.func_name === 'suspend_line_for_overdue_bill')!.arguments.contract_ended = flag;
        const sim = run.simulations.find((x) => x.task_id === task.id)!;
        sim.messages = [
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 'get_details_by_id', arguments: { id: 'L1002' }, requestor: 'assistant' }] },
          { role: 'tool', id: 'c', content: 'x', requestor: 'assistant', error: false },
        ];
        run.simulations = [sim];
      });
      return JSON.parse(s.report(0).tool_calls[0]!.output!).contract_end_date;
    };
    expect([await endDate('100'), await endDate(''), await endDate(false)]).toEqual(['2025-01-31', '2026-12-31', '2026-12-31']);
  });

  it('airline calculate: a list or dict expression is iterated, `in` on a str refusing non-str items', async () => {
    expect(
      await replayed('sierra-research__gym-gpt-4.1-airline.json', [
        ['calculate', { expression: [1] }],
        ['calculate', { expression: ['12', '+'] }],
        ['calculate', { expression: [null] }],
        ['calculate', { expression: { x: 2 } }],
      ]),
    ).toEqual([
      "Error: 'in <string>' requires string as left operand, not int",
      'Error: eval() arg 1 must be a string, bytes or code object',
      "Error: 'in <string>' requires string as left operand, not NoneType",
      'Error: Invalid characters in expression',
    ]);
  });

  it("communicate: a message is text when Python's str.strip() leaves something (U+FEFF does, \\x1c and \\x85 do not)", async () => {
    const met: boolean[] = [];
    for (const ch of ['\ufeff', '\x1c', '\x85']) {
      const s = await openTau2Edited(MOCK_RUN, (run) => {
        const sim = run.simulations[0]!;
        const ec = run.tasks.find((t) => t.id === sim.task_id)!.evaluation_criteria as Record<string, unknown>;
        ec.communicate_info = [ch];
        ec.reward_basis = ['COMMUNICATE'];
        (sim.messages as { role: string; content: unknown }[]).find((m) => m.role === 'assistant')!.content = ch;
        run.simulations = [sim];
      });
      met.push(s.report(0).communicate_checks![0]!.met);
    }
    expect(met).toEqual([true, false, false]);
  });

  it('what τ²’s pydantic models refuse (τ² then loads nothing of the file) is no verdict: said where, the other simulations still judged', async () => {
    const s = await openTau2Edited(MOCK_RUN, (run) => {
      const sim = run.simulations[0]!;
      run.simulations.push({ ...sim, id: 'weird', termination_reason: 'weird' }, { ...sim, id: 'valid' });
      run.simulations[0] = structuredClone(sim);
      const call = (run.simulations[0].messages as { tool_calls?: { arguments: unknown }[] | null }[]).find((m) => m.tool_calls)!.tool_calls![0]!;
      call.arguments = '{"user_id": "user_1"}';
    });
    expect(s.report(0)).toMatchObject({ reward: 0, db_match: null });
    expect(s.report(0).error).toMatch(
      /^not evaluable: τ² refuses this results file at a part the verdict reads: simulations\.0\.messages\.\d+\.(Assistant|User)Message\.tool_calls\.0\.arguments: Input should be an object \[type=dict_type, input_value='\{"user_id": "user_1"\}', input_type=str\]$/,
    );
    expect(s.report(1).error).toBe(
      "not evaluable: τ² refuses this results file at a part the verdict reads: simulations.1.termination_reason: Input should be 'user_stop', 'agent_stop', 'max_steps', 'timeout', 'too_many_errors', 'agent_error', 'user_error', 'infrastructure_error', 'context_window_exceeded' or 'unexpected_error' [type=enum, input_value='weird', input_type=str]",
    );
    expect(s.report(2)).toMatchObject({ error: null, reward: 1 });
  });

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
