import { describe, expect, it } from 'vitest';
import { toolCallingAction } from '../../../src/core/model/episode/actions';
import { PyException } from '../../../src/core/py/errors';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict, PyList } from '../../../src/core/py/value';

/** An assistant message calling `name` with `args` (the JSON text as the model wrote it). */
const message = (name: string, args: string): PyDict =>
  new Map<string, unknown>([
    ['role', 'assistant'],
    ['content', null],
    [
      'tool_calls',
      [
        new Map([
          [
            'function',
            new Map([
              ['name', name],
              ['arguments', args],
            ]),
          ],
        ]),
      ],
    ],
  ]) as PyDict;

/** Tool-call arguments are parsed once per text and handed out as copies: each the value a parse gives, none shared. */
describe('tool-call arguments parsed by their text', () => {
  const texts = [
    '{"user_id": "mia_li_3668"}',
    '{"reservation_id": "HATHAT", "passengers": [{"first_name": "Mia", "dob": "1990-01-01"}], "total": 1.0, "n": 2}',
    '{"amount": 1e400, "big": 123456789012345678901234567890}',
    '{"a": 1, "a": 2}',
  ];
  it('the same value as a parse of the text, every time, and a new object every time', () => {
    for (const text of texts) {
      const want = parseJson(text);
      const a = toolCallingAction(message('tool', text)).kwargs;
      const b = toolCallingAction(message('tool', text)).kwargs;
      expect(a).toEqual(want);
      expect(b).toEqual(want);
      expect(b).not.toBe(a);
    }
  });

  it('a change made to one call’s arguments (a tool keeping or editing what it got) is never seen by the next call', () => {
    const text = texts[1]!;
    const first = toolCallingAction(message('book', text)).kwargs;
    ((first.get('passengers') as PyList)[0] as PyDict).set('first_name', 'Changed');
    first.set('total', 2n);
    const next = toolCallingAction(message('book', text)).kwargs;
    expect(next).toEqual(parseJson(text));
    expect(((next.get('passengers') as PyList)[0] as PyDict).get('first_name')).toBe('Mia');
  });

  it('a text that does not parse raises json.loads’s error each time', () => {
    for (let i = 0; i < 2; i++) {
      let error: unknown = null;
      try {
        toolCallingAction(message('tool', '{"user_id": '));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PyException);
      expect((error as PyException).pyType).toBe('JSONDecodeError');
    }
  });
});
