/** τ²'s telecom domain on its own data: TOML values, the device and its sync with the agent's DB, the random bill id. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parseToml, TomlError } from '../../../../src/core/py/toml';
import { jsonDumps } from '../../../../src/core/py/json-dumps';
import { parseJson } from '../../../../src/core/py/json-parse';
import { modelDump, pyJsonDumps, validate, type TDict, type TValue } from '../../../../src/core/py/pydantic';
import { Tau2Environment, type BaseDbs } from '../../../../src/core/env/tau2/environment';
import { TELECOM } from '../../../../src/core/model/domains/tau2/telecom';
import type { EnvFunctionCall, Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';
import { describeTau2, TAU2_DIR } from '../../../support/shared';

const DIR = () => join(TAU2_DIR, 'data/a2c024725189473d2d7cea3a5cfdbcc67478e41f/data/tau2/domains/telecom');
const py = (json: string): TDict => parseJson(json) as TDict;
const call = (name: string, args: string, requestor: 'assistant' | 'user' = 'assistant'): Tau2ToolCall => ({ id: 'c', name, arguments: py(args), requestor });
const fn = (envType: 'assistant' | 'user', funcName: string, args: string): EnvFunctionCall => ({
  envType,
  funcName,
  arguments: py(args),
  assertValue: true,
  message: null,
  raw: new Map(),
});

it('TOML: tables, arrays of tables (a sub-array joins the last element), ints stay ints, floats floats, errors name the line', () => {
  const v = parseToml(
    '[[bills]]\nid = "B1"\ntotal = 160.5\nn = 3\n[[bills.line_items]]\namount = 40.0\n[[bills]]\nid = "B2"\n[device.apn]\nname = "internet"\nok = true\nids = ["a", "b"]\n',
  );
  expect(jsonDumps(v)).toBe(
    '{"bills": [{"id": "B1", "total": 160.5, "n": 3, "line_items": [{"amount": 40.0}]}, {"id": "B2"}], "device": {"apn": {"name": "internet", "ok": true, "ids": ["a", "b"]}}}',
  );
  expect(() => parseToml('a = 1\nb = nope\n')).toThrow(TomlError);
  expect(() => parseToml('a = 1\nb = nope\n')).toThrow(/line 2/);
});

describeTau2('the telecom environment', () => {
  let base: BaseDbs;
  beforeAll(() => {
    base = {
      agent: validate(TELECOM.agent.db, parseToml(readFileSync(join(DIR(), 'db.toml'), 'utf8')) as TValue),
      user: validate(TELECOM.user!.db, parseToml(readFileSync(join(DIR(), 'user_db.toml'), 'utf8')) as TValue),
      shared: new Map(),
    };
  });

  it('dates dump as YYYY-MM-DD and datetimes as YYYY-MM-DD HH:MM:SS, enums as their values; a date default stays a date', () => {
    const text = pyJsonDumps(modelDump(base.agent), { sortKeys: true });
    expect(text).toContain('"activation_date": "2025-01-20 14:30:00"');
    expect(text).toContain('"period_start": "2025-01-01"');
    expect(text).toContain('"status": "Paid"');
    expect(text).toMatch(/"created_at": "\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?"/);
  });

  it('sync: the user’s line state reaches the phone after every call; a paid request settles its bill', () => {
    const env = new Tau2Environment(TELECOM, base, false);
    const phone = (env.agent!.db.get('lines') as TValue[]).map((l) => (l as { get(k: string): TValue }).get('phone_number'))[0] as string;
    env.runEnvFunctionCall(fn('user', 'set_user_info', `{"name": "A", "phone_number": "${phone}"}`));
    const sur = () => pyJsonDumps(modelDump(env.user!.db.get('surroundings') as never as TValue));
    expect(sur()).toContain(`"phone_number": "${phone}"`);
    expect(env.getResponse(call('check_network_status', '{}', 'user')).content).toContain('Airplane Mode: OFF');
    expect(env.getResponse(call('toggle_airplane_mode', '{}', 'user')).content).toMatch(/^Airplane Mode is now ON\.\nStatus Bar: ✈️ Airplane Mode \| 🔋 80%$/);
  });

  it('solo mode: the agent’s calls of device tools reach the phone', () => {
    const env = new Tau2Environment(TELECOM, base, true);
    expect(env.getResponse(call('toggle_data', '{}')).content).toMatch(/^Mobile Data is now OFF\./);
    expect(env.getResponse(call('toggle_data', '{}', 'user')).content).toBe('Error: User tool calls are not allowed in solo mode');
  });

  it("refuel_data without a draft bill draws τ²'s random bill id: the environment says its hash is not reproducible", () => {
    const env = new Tau2Environment(TELECOM, base, false);
    const customers = env.agent!.db.get('customers') as { get(k: string): TValue }[];
    const bills = env.agent!.db.get('bills') as { get(k: string): TValue }[];
    const draftOwners = new Set(bills.filter((b) => (b.get('status') as { value: string }).value === 'Draft').map((b) => b.get('customer_id')));
    const c = customers.find((x) => !draftOwners.has(x.get('customer_id')) && (x.get('line_ids') as TValue[]).length > 0)!;
    const line = (c.get('line_ids') as TValue[])[0] as string;
    const r = env.getResponse(call('refuel_data', `{"customer_id": "${c.get('customer_id') as string}", "line_id": "${line}", "gb_amount": 2}`));
    expect(r.error, r.content).toBe(false);
    expect(env.nondeterministic()).toBe(true);
    expect(new Tau2Environment(TELECOM, base, false).nondeterministic()).toBe(false);
  });
});
