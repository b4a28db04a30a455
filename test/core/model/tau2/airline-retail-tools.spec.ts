/**
 * τ²'s airline and retail tools on their real DBs, on inputs a model sends: each output as τ²'s
 * environment writes it (CPython's and pydantic's texts), and initialization data merged as τ² merges it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parseJson } from '../../../../src/core/py/json-parse';
import { modelDump, pyJsonDumps, validate, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { Tau2Environment, type BaseDbs } from '../../../../src/core/env/tau2/environment';
import { AIRLINE } from '../../../../src/core/model/domains/tau2/airline';
import { MOCK } from '../../../../src/core/model/domains/tau2/mock';
import { RETAIL } from '../../../../src/core/model/domains/tau2/retail';
import type { Tau2Domain } from '../../../../src/core/model/domains/tau2/toolkit';
import type { Tau2Task, Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { describeTau2, TAU2_DIR } from '../../../support/shared';

const py = (json: string): TDict => parseJson(json) as TDict;
const call = (name: string, args: string): Tau2ToolCall => ({ id: 'c', name, arguments: py(args), requestor: 'assistant' });
const load = (d: Tau2Domain): BaseDbs => ({
  agent: validate(
    d.agent.db,
    parseJson(readFileSync(join(TAU2_DIR, 'data/a2c024725189473d2d7cea3a5cfdbcc67478e41f/data/tau2/domains', d.name, 'db.json'), 'utf8')) as TValue,
  ),
  user: null,
});

describeTau2('τ² airline and retail tools', () => {
  let airline: BaseDbs;
  let retail: BaseDbs;
  beforeAll(() => {
    airline = load(AIRLINE);
    retail = load(RETAIL);
  });

  it('airline: errors as CPython and pydantic write them; a write leaves the shared base untouched', () => {
    const env = new Tau2Environment(AIRLINE, airline, false);
    const out = (name: string, args: string) => env.getResponse(call(name, args)).content;
    expect(out('get_user_details', '{"user_id": "nobody_1"}')).toBe('Error: User nobody_1 not found');
    expect(out('get_user_details', '{"user_id": ["x"]}')).toBe("Error: unhashable type: 'list'");
    expect(out('get_user_details', '{}')).toBe("Error: AirlineTools.get_user_details() missing 1 required positional argument: 'user_id'");
    expect(out('calculate', '{"expression": "2 * (3 + 4.5)"}')).toBe('15.0');
    expect(out('calculate', '{"expression": "1 / 0"}')).toBe('Error: division by zero');
    expect(out('calculate', '{"expression": "2 ** 3"}')).toBe('8.0'); // '**' passes the character check: eval'd as Python does
    expect(
      out(
        'book_reservation',
        '{"user_id": "x", "origin": "A", "destination": "B", "flight_type": "one_way", "cabin": "economy", "flights": [], "passengers": [], "payment_methods": [{"payment_id": "p"}], "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}',
      ),
    ).toBe(
      "Error: 1 validation error for Payment\namount\n  Field required [type=missing, input_value={'payment_id': 'p'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing",
    );
    const [id, user] = [...(airline.agent.get('users') as TDict)][0]!;
    const before = pyJsonDumps(modelDump(user));
    const r = env.getResponse(call('send_certificate', `{"user_id": "${id}", "amount": 100}`));
    expect(r.content).toMatch(/^Certificate certificate_3221322 added to user .* with amount 100\.$/);
    expect(pyJsonDumps(modelDump(user))).toBe(before);
    expect(env.agentHash()).not.toBe(new Tau2Environment(AIRLINE, airline, false).agentHash());
  });

  it('retail: lookups, float arithmetic and the errors of a pending order as τ² writes them', () => {
    const env = new Tau2Environment(RETAIL, retail, false);
    const out = (name: string, args: string) => env.getResponse(call(name, args)).content;
    expect(out('find_user_id_by_email', '{"email": "nobody@example.com"}')).toBe('Error: User not found');
    expect(out('find_user_id_by_email', '{"email": 5}')).toBe("Error: 'int' object has no attribute 'lower'");
    expect(out('get_order_details', '{"order_id": "#W0000000"}')).toBe('Error: Order not found');
    expect(out('list_all_product_types', '{}')).toMatch(/^\{"[^"]+": "\d+"/);
    const orders = retail.agent.get('orders') as TDict;
    const [oid] = [...orders].find(([, o]) => (modelDump(o) as TDict).get('status') === 'delivered')!;
    expect(out('cancel_pending_order', `{"order_id": "${oid}", "reason": "no longer needed"}`)).toBe('Error: Non-pending order cannot be cancelled');
    const [pid] = [...orders].find(([, o]) => (modelDump(o) as TDict).get('status') === 'pending')!;
    expect(out('cancel_pending_order', `{"order_id": "${pid}", "reason": "changed my mind"}`)).toBe('Error: Invalid reason');
    expect(out('cancel_pending_order', `{"order_id": "${pid}", "reason": ["x"]}`)).toBe("Error: unhashable type: 'list'");
    expect(JSON.parse(out('cancel_pending_order', `{"order_id": "${pid}", "reason": "no longer needed"}`)).status).toBe('cancelled');
  });

  it('initialization data is merged key by key into the DB, then validated again (update_pydantic_model_with_dict)', () => {
    const base: BaseDbs = {
      agent: validate(
        MOCK.agent.db,
        py('{"tasks": {"t1": {"task_id": "t1", "title": "A", "status": "pending"}}, "users": {"u": {"user_id": "u", "name": "U", "tasks": ["t1"]}}}'),
      ),
      user: validate(MOCK.user!.db, py('{}')),
    };
    const task = {
      initializationData: { agentData: py('{"tasks": {"t1": {"status": "completed"}}}'), userData: null },
      initializationActions: null,
      messageHistory: [],
      criteria: null,
      id: 'x',
      raw: new Map(),
      refusals: { blocking: null, nl: null, other: null },
    } as Tau2Task;
    const env = new Tau2Environment(MOCK, base, false);
    env.setState(task, []);
    expect(pyJsonDumps(modelDump(env.agent!.db))).toBe(
      '{"tasks": {"t1": {"task_id": "t1", "title": "A", "description": null, "status": "completed"}}, "users": {"u": {"user_id": "u", "name": "U", "tasks": ["t1"]}}}',
    );
    const bad = { ...task, initializationData: { agentData: py('{"tasks": {"t1": {"status": "done"}}}'), userData: null } } as Tau2Task;
    expect(() => new Tau2Environment(MOCK, base, false).setState(bad, [])).toThrow(
      /1 validation error for MockDB\ntasks\.t1\.status\n {2}Input should be 'pending' or 'completed'/,
    );
  });
});
