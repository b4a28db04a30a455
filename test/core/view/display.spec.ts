import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/py/json-parse';
import { prettyJson, pyJson, pyJsonLines } from '../../../src/core/view/display';

const record = parseJson(
  `{"reservation_id": "HATHAT", "payment_history": [{"payment_id": "gift_card_1", "amount": 500.0}, {"payment_id": "gift_card_2", "amount": 198.0}], "weird key": {}, "total_baggages": 0.0, "n": 3}`,
);

describe('pyJsonLines: records line by line with their field paths', () => {
  const lines = pyJsonLines(record);

  it('prints exactly what pyJson prints', () => {
    expect(lines.map((l) => l.text).join('\n')).toBe(pyJson(record));
    expect(lines.map((l) => l.text)).toContain('      "amount": 500.0');
  });

  it('names every line like FieldChangeView.path; a closing line carries its container', () => {
    expect(lines.map((l) => l.path)).toEqual([
      '(whole record)',
      'reservation_id',
      'payment_history',
      'payment_history[0]',
      'payment_history[0].payment_id',
      'payment_history[0].amount',
      'payment_history[0]',
      'payment_history[1]',
      'payment_history[1].payment_id',
      'payment_history[1].amount',
      'payment_history[1]',
      'payment_history',
      '["weird key"]',
      'total_baggages',
      'n',
      '(whole record)',
    ]);
  });

  it('marks the lines at or under marked paths, and only those', () => {
    const marked = (paths: (string | number)[][]) =>
      pyJsonLines(record, paths)
        .filter((l) => l.marked)
        .map((l) => l.text.trim());
    expect(marked([['payment_history', 1], ['total_baggages']])).toEqual([
      '{',
      '"payment_id": "gift_card_2",',
      '"amount": 198.0',
      '}',
      '"total_baggages": 0.0,',
    ]);
    expect(marked([['payment_history', 1, 'amount']])).toEqual(['"amount": 198.0']);
    expect(marked([['payment_h']])).toEqual([]);
    expect(pyJsonLines(record, [[]]).every((l) => l.marked)).toBe(true);
    expect(pyJsonLines(record).some((l) => l.marked)).toBe(false);
  });

  it('prints scalars and empty containers on one line', () => {
    expect(pyJsonLines(parseJson('[]'))).toEqual([{ text: '[]', path: '(whole record)', marked: false }]);
    expect(pyJsonLines(parseJson('7')).map((l) => l.text)).toEqual(['7']);
  });
});

describe('prettyJson: tool arguments', () => {
  it('pretty-prints without touching number text', () => {
    expect(prettyJson('{"amount": 250.0, "ids": [1, 2], "note": "a, {b}: [c]", "empty": {}}')).toBe(
      '{\n  "amount": 250.0,\n  "ids": [\n    1,\n    2\n  ],\n  "note": "a, {b}: [c]",\n  "empty": {}\n}',
    );
    expect(prettyJson('{"a": "quote \\" inside"}')).toBe('{\n  "a": "quote \\" inside"\n}');
    expect(prettyJson('{not json')).toBeNull();
  });
});
