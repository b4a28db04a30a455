/**
 * The pydantic 2 emulation, the DB hash encoding and τ²'s environment on small hand-made inputs,
 * each value checked against what CPython 3.11 with pydantic 2 prints for it.
 */
import { describe, expect, it } from 'vitest';
import { PyException } from '../../../../src/core/py/errors';
import { parseJson } from '../../../../src/core/py/json-parse';
import { defineModel, field, modelDump, pyJsonDumps, t, tRepr, validate, type TValue } from '../../../../src/core/py/pydantic';
import { dbHash, Tau2Environment, toJsonStr } from '../../../../src/core/env/tau2/environment';
import { MOCK } from '../../../../src/core/model/domains/tau2/mock';
import { MockDb, MockUserDb } from '../../../../src/core/model/domains/tau2/mock/models';
import type { Tau2ToolCall } from '../../../../src/core/model/episode/tau2/types';

const py = (json: string): TValue => parseJson(json) as TValue;
const errorText = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof PyException) return `${e.pyType}: ${e.text}`;
    throw e;
  }
  throw new Error('no exception');
};

const Payment = defineModel('Payment', [field('payment_id', t.str), field('amount', t.int)]);
const Item = defineModel(
  'Item',
  [field('name', t.str), field('price', t.float), field('tags', t.list(t.str), { factory: () => [] }), field('note', t.optional(t.str), { default: null })],
  {
    extra: 'forbid',
  },
);

describe('pydantic 2 validation', () => {
  it('lax numbers: int from an integral float, float from an int; a fractional float is no int', () => {
    expect(modelDump(validate(Payment, py('{"payment_id": "p", "amount": 3.0}')))).toEqual(
      new Map<string, TValue>([
        ['payment_id', 'p'],
        ['amount', 3n],
      ]),
    );
    expect(pyJsonDumps(modelDump(validate(Item, py('{"name": "x", "price": 5}'))))).toBe('{"name": "x", "price": 5.0, "tags": [], "note": null}');
    expect(errorText(() => validate(Payment, py('{"payment_id": "p", "amount": 2.5}')))).toBe(
      'ValidationError: 1 validation error for Payment\namount\n  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=2.5, input_type=float]\n    For further information visit https://errors.pydantic.dev/2.13/v/int_from_float',
    );
  });

  it('missing fields list the whole input, its repr cut to 25 + ... + 24 characters past 50', () => {
    // The text τ² recorded for gpt-oss-120b's book_reservation (pr133).
    expect(errorText(() => validate(Payment, py('{"type": "certificate", "id": "certificate_8045380"}')))).toBe(
      "ValidationError: 2 validation errors for Payment\npayment_id\n  Field required [type=missing, input_value={'type': 'certificate', '...: 'certificate_8045380'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing\namount\n  Field required [type=missing, input_value={'type': 'certificate', '...: 'certificate_8045380'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing",
    );
  });

  it('str is never made from a number; extra fields are refused where the model forbids them; list positions in the location', () => {
    expect(errorText(() => validate(Item, py('{"name": 7, "price": 1.5, "tags": ["a", 2], "colour": "red"}')))).toBe(
      [
        'ValidationError: 3 validation errors for Item',
        'name',
        '  Input should be a valid string [type=string_type, input_value=7, input_type=int]',
        '    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
        'tags.1',
        '  Input should be a valid string [type=string_type, input_value=2, input_type=int]',
        '    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
        'colour',
        "  Extra inputs are not permitted [type=extra_forbidden, input_value='red', input_type=str]",
        '    For further information visit https://errors.pydantic.dev/2.13/v/extra_forbidden',
      ].join('\n'),
    );
  });

  it('literals name every allowed value', () => {
    const M = defineModel('Task', [field('status', t.literal('pending', 'completed'))]);
    expect(errorText(() => validate(M, py('{"status": "done"}')))).toContain(
      "Input should be 'pending' or 'completed' [type=literal_error, input_value='done', input_type=str]",
    );
  });

  it('repr of models, floats and non-ASCII text as Python prints them', () => {
    const m = validate(Item, py('{"name": "caf\\u00e9 \\u2603", "price": 1e16, "tags": ["it\'s"]}'));
    expect(tRepr(m)).toBe(`Item(name='café ☃', price=1e+16, tags=["it's"], note=None)`);
  });
});

describe('the DB hash encoding', () => {
  it('json.dumps(sort_keys=True): ensure_ascii, float repr, integral floats keep .0, keys by code point', () => {
    const v = py('{"b": 1.0, "a": "\\u00e9\\ud83d\\ude00", "Z": [1, 0.1, 1e-07, 12345678901234567890], "\\u00e0": null}');
    expect(pyJsonDumps(v, { sortKeys: true })).toBe('{"Z": [1, 0.1, 1e-07, 12345678901234567890], "a": "\\u00e9\\ud83d\\ude00", "b": 1.0, "\\u00e0": null}');
  });

  it("the mock DB's hash is τ²'s (base_db_hash of the pr170 mock record)", () => {
    const db = validate(MockDb, py('{"tasks": {"task_1": {"task_id": "task_1", "title": "T", "status": "pending"}}, "users": {}}'));
    expect(pyJsonDumps(modelDump(db), { sortKeys: true })).toBe(
      '{"tasks": {"task_1": {"description": null, "status": "pending", "task_id": "task_1", "title": "T"}}, "users": {}}',
    );
    expect(dbHash(db)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('τ²’s environment on the mock domain', () => {
  const base = {
    agent: validate(MockDb, py('{"tasks": {}, "users": {"user_1": {"user_id": "user_1", "name": "A", "tasks": []}}}')),
    user: validate(MockUserDb, py('{"notifications": {"n1": {"notification_id": "n1", "message": "hi"}}}')),
  };
  const call = (name: string, args: string, requestor: 'assistant' | 'user' = 'assistant'): Tau2ToolCall => ({
    id: 'c',
    name,
    arguments: py(args) as Map<string, TValue>,
    requestor,
  });

  it('tool outputs: json of model_dump in field order; errors as "Error: " + str(e), with Python argument-binding texts', () => {
    const env = new Tau2Environment(MOCK, base, false);
    expect(env.getResponse(call('create_task', '{"user_id": "user_1", "title": "Meet"}'))).toEqual({
      content: '{"task_id": "task_1", "title": "Meet", "description": null, "status": "pending"}',
      error: false,
    });
    expect(env.getResponse(call('create_task', '{"user_id": "nobody", "title": "x"}')).content).toBe('Error: User nobody not found');
    expect(env.getResponse(call('create_task', '{"user_id": "user_1"}')).content).toBe(
      "Error: MockTools.create_task() missing 1 required positional argument: 'title'",
    );
    expect(env.getResponse(call('create_task', '{"title": "x", "colour": 1}')).content).toBe(
      "Error: MockTools.create_task() got an unexpected keyword argument 'colour'",
    );
    expect(env.getResponse(call('create_task', '{}')).content).toBe(
      "Error: MockTools.create_task() missing 2 required positional arguments: 'user_id' and 'title'",
    );
    expect(env.getResponse(call('create_task', '{"user_id": "user_1", "title": 5}')).content).toContain(
      'Error: 1 validation error for Task\ntitle\n  Input should be a valid string',
    );
    expect(env.getResponse(call('no_such_tool', '{}')).content).toBe("Error: Tool 'no_such_tool' not found.");
  });

  it('user tools reach the user DB; in solo mode the agent reaches them and the user may not call at all', () => {
    const env = new Tau2Environment(MOCK, base, false);
    expect(env.getResponse(call('dismiss_notification', '{"notification_id": "n1"}', 'user')).content).toBe('Notification n1 dismissed');
    expect(env.getResponse(call('dismiss_notification', '{"notification_id": "n1"}')).content).toBe("Error: Tool 'dismiss_notification' not found.");
    const solo = new Tau2Environment(MOCK, base, true);
    expect(solo.getResponse(call('dismiss_notification', '{"notification_id": "n1"}')).content).toBe('Notification n1 dismissed');
    expect(solo.getResponse(call('check_notifications', '{}', 'user')).content).toBe('Error: User tool calls are not allowed in solo mode');
    // The base DBs are untouched by every environment made from them.
    expect(pyJsonDumps(modelDump(base.user))).toContain('"status": "unread"');
  });

  it('to_json_str: str as is, numbers and bools as the JSON of their str(), None as null', () => {
    expect(toJsonStr('plain')).toBe('plain');
    expect(toJsonStr(5n)).toBe('"5"');
    expect(toJsonStr(2.5)).toBe('"2.5"');
    expect(toJsonStr(true)).toBe('"True"');
    expect(toJsonStr(null)).toBe('null');
  });
});
