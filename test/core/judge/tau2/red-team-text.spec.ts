/**
 * The text domains' parity red team (telecom, retail, airline, mock): cases made in the test from ../shared's runs —
 * a task's initial state, evaluation criteria or a simulation's calls changed — that τ²'s own Python (v1.0.1's
 * Results.load and evaluate_simulation as evaluate-trajs calls it, and its Environment replaying every call) judged
 * otherwise than the port did. Each expectation is what τ² gave on the same input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Tau2Session } from '../../../../src/core/session/tau2/session';
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { openTau2Edited, tau2Read } from '../../../support/tau2';

type Json = Record<string, unknown>;
const TELECOM = 'sierra-research__gym-gpt-4.1-telecom.json';
const MOCK = 'sierra-research__pr170-e2e-mock-baseline.json';

/** The first simulation of a shared run with its task, alone in the file, after `edit`. */
async function one(file: string, edit: (sim: Json, task: Json) => void) {
  const s = await openTau2Edited(file, (run) => {
    const sim = run.simulations.find((x) => x.termination_reason === 'user_stop' || x.termination_reason === 'agent_stop')!;
    const task = run.tasks.find((t) => t.id === sim.task_id)!;
    edit(sim, task);
    run.simulations = [sim];
    run.tasks = [task];
  });
  return s.report(0);
}

/** A tool call and its (placeholder) tool message, as a results file records them. */
const call = (id: string, role: string, name: string, args: Json): Json[] => [
  { role, content: null, tool_calls: [{ id, name, arguments: args, requestor: role }] },
  { role: 'tool', id, content: 'x', requestor: role, error: false },
];

describeTau2('the text domains’ red team: τ²’s verdict and tool outputs on inputs no shared run holds', () => {
  it('telecom: initialization data for the user hands the agent’s toolkit the user’s DB (set_state) — agent tools answer AttributeError', async () => {
    const r = await one(TELECOM, (_sim, task) => {
      (task.initial_state as Json).initialization_data = { agent_data: null, user_data: { surroundings: { is_abroad: true } } };
    });
    // τ²: set_state's `self.tools.db = self.user_tools.db`, then sync_tools reads `lines` of a TelecomUserDB.
    expect(r.error).toBe("AttributeError: 'TelecomUserDB' object has no attribute 'lines'");
    const first = r.tool_calls.find((c) => c.requestor === 'assistant')!;
    expect(first.name).toBe('get_customer_by_phone');
    expect([first.output, first.error]).toEqual(["Error: 'TelecomUserDB' object has no attribute 'customers'", true]);
  });

  it('telecom: remove_app_permission (an initialization action) of a BaseModel attribute raises as pydantic’s __setattr__ does — no verdict', async () => {
    const judged = async (permission: string) =>
      one(TELECOM, (_sim, task) => {
        const init = task.initial_state as Json;
        init.initialization_actions = [
          ...(init.initialization_actions as Json[]),
          { env_type: 'user', func_name: 'remove_app_permission', arguments: { app_name: 'messaging', permission } },
        ];
      });
    // τ²: `hasattr(permissions, permission)` holds for BaseModel's methods and properties, and setattr raises.
    expect((await judged('Model_Dump')).error).toBe('ValueError: "AppPermissions" object has no field "model_dump"');
    expect((await judged('__class__')).error).toBe("TypeError: __class__ must be set to a class, not 'bool' object");
    expect((await judged('model_fields_set')).error).toBe("AttributeError: property 'model_fields_set' of 'AppPermissions' object has no setter");
    // A dunder pydantic lets through, a name that is no attribute, a field: judged (τ²: reward 1.0 each).
    for (const p of ['__eq__', 'fields', 'storage']) expect(await judged(p)).toMatchObject({ error: null, reward: 1 });
  });

  it('an initialization that raises and a tool message that does not answer its call: τ²’s reason is the initialization’s (set_state pairs calls after it)', async () => {
    const r = await one(TELECOM, (sim, task) => {
      const init = (task.initial_state as Json).initialization_actions as { arguments: Json }[];
      init[0]!.arguments.phone_number = '555-000-0000';
      const tool = (sim.messages as Json[]).find((m) => m.role === 'tool')!;
      tool.id = `${String(tool.id)}x`;
    });
    expect(r.error).toBe('ValueError: Line with phone number 555-000-0000 not found');
  });

  it('telecom: set_apn_settings given a str stores it before failing, and check_apn_settings then fails on model_copy, as in τ²', async () => {
    const r = await one(TELECOM, (sim) => {
      const messages = sim.messages as Json[];
      sim.messages = [
        messages[0]!,
        ...call('a', 'user', 'set_apn_settings', { apn_settings: 'x' }),
        ...call('b', 'user', 'check_apn_settings', {}),
        messages.at(-1)!,
      ];
    });
    expect(r.tool_calls.map((c) => [c.output, c.error])).toEqual([
      ["Error: 'str' object has no attribute 'apn_name'", true],
      ["Error: 'str' object has no attribute 'model_copy'", true],
    ]);
  });

  it('telecom: refuel_data of NaN GB (a NaN literal in the file, which τ²’s JSON parser reads) bills a Charge, as `"Credit" if amount < 0 else "Charge"` does', async () => {
    const run = JSON.parse(readFileSync(join(TAU2_DIR, 'runs', TELECOM), 'utf8')) as { simulations: Json[]; tasks: Json[] };
    const sim = run.simulations.find((x) => x.termination_reason === 'user_stop' || x.termination_reason === 'agent_stop')!;
    const messages = sim.messages as Json[];
    sim.messages = [
      messages[0]!,
      ...call('n0', 'assistant', 'refuel_data', { customer_id: 'C1001', line_id: 'L1002', gb_amount: '@NaN@' }),
      ...call('n1', 'assistant', 'get_data_usage', { customer_id: 'C1001', line_id: 'L1002' }),
      { role: 'assistant', content: 'bye' },
    ];
    run.simulations = [sim];
    run.tasks = run.tasks.filter((t) => t.id === sim.task_id);
    const text = JSON.stringify(run).replace('"@NaN@"', 'NaN');
    const r = (await Tau2Session.open(Tau2Session.read(text), tau2Read)).report(0);
    expect(r.tool_calls[0]!.output).toBe(
      '{"message": "Successfully added nan GB of data for line L1002 for $nan", "new_data_refueling_gb": "nan", "charge": "nan"}',
    );
    // τ²'s predicted agent DB after the calls (sha256 of its json.dumps): the draft bill's NaN line item is a Charge.
    expect(r.db_hash?.predicted_agent).toBe('37bfeb4d7aef683aeb8847460ce89746e531a25cabca5c2928b224fc08c833d5');
  });

  it('a premature simulation whose task the file lacks: no verdict (evaluate-trajs’ KeyError comes before the termination reason is read)', async () => {
    const s = await openTau2Edited(MOCK, (run) => {
      const sim = run.simulations[0]!;
      run.simulations = [sim, { ...sim, id: 'premature-absent', termination_reason: 'max_steps', task_id: 'absent' }];
    });
    expect(s.report(0)).toMatchObject({ reward: 1, error: null });
    expect(s.report(1)).toMatchObject({ reward: 0, premature: false, error: 'task absent is not in the file' });
  });
});
