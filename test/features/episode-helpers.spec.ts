import { describe, expect, it } from 'vitest';
import type { StepView } from '../../src/core/view/episode-view';
import { linePaths, markLines, touchedRecords } from '../../src/features/episode/db-state';
import { differingSpans, indentJson, snippet, splitSpan } from '../../src/features/episode/text';
import { stepForKey } from '../../src/features/episode/use-step-keys';

const record = `{
  "reservation_id": "HATHAT",
  "payment_history": [
    {
      "payment_id": "gift_card_1",
      "amount": 500.0
    },
    {
      "payment_id": "gift_card_2",
      "amount": 198.0
    }
  ],
  "weird key": {},
  "total_baggages": 0.0
}`;

describe('linePaths', () => {
  it('names every line of pretty JSON like FieldChangeView.path', () => {
    expect(linePaths(record)).toEqual([
      '',
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
      '',
    ]);
  });

  it('marks the lines under changed paths, and only those', () => {
    const chunks = markLines(record, ['payment_history[1]', 'total_baggages']);
    expect(chunks.filter((c) => c.marked).map((c) => c.text)).toEqual([
      '    {\n      "payment_id": "gift_card_2",\n      "amount": 198.0\n    }',
      '  "total_baggages": 0.0',
    ]);
    expect(chunks.map((c) => c.text).join('\n')).toBe(record);
    expect(markLines(record, ['payment_history[1].amount']).filter((c) => c.marked).map((c) => c.text)).toEqual(['      "amount": 198.0']);
    expect(markLines(record, ['(whole record)'])).toEqual([{ text: record, marked: true }]);
  });
});

describe('touchedRecords', () => {
  const change = (table: string, key: string, after: string | null) => ({ table, key, before: null, after, fields: [] });
  const step = (index: number, changes: ReturnType<typeof change>[]) => ({ index, changes }) as unknown as StepView;
  const steps = [step(0, []), step(1, [change('users', 'a', 'A1')]), step(2, [change('orders', 'x', 'X1')]), step(3, [change('users', 'a', 'A2')])];

  it('keeps the latest version of each record, in first-touched order, marking the selected step', () => {
    expect(touchedRecords(steps, 0)).toEqual([]);
    const at2 = touchedRecords(steps, 2);
    expect(at2.map((r) => [r.id, r.json, r.current !== null])).toEqual([
      ['users/a', 'A1', false],
      ['orders/x', 'X1', true],
    ]);
    const at3 = touchedRecords(steps, 3);
    expect(at3.map((r) => [r.id, r.json, r.firstStep, r.lastStep, r.current !== null])).toEqual([
      ['users/a', 'A2', 1, 3, true],
      ['orders/x', 'X1', 2, 2, false],
    ]);
  });
});

describe('text helpers', () => {
  it('splits text around a span into plain strings', () => {
    expect(splitSpan('Total: 1,786 dollars', { start: 7, end: 12 })).toEqual({ before: 'Total: ', match: '1,786', after: ' dollars' });
    expect(snippet(`${'a'.repeat(100)}X${'b'.repeat(100)}`, { start: 100, end: 101 }, 5)).toEqual({ before: '…aaaaa', match: 'X', after: 'bbbbb…' });
  });

  it('finds where two texts differ', () => {
    expect(differingSpans('abcXYZdef', 'abc12def')).toEqual({ a: { start: 3, end: 6 }, b: { start: 3, end: 5 } });
    expect(differingSpans('same', 'same')).toBeNull();
  });

  it('re-indents JSON without touching number text', () => {
    expect(indentJson('{"amount": 250.0, "ids": [1, 2], "note": "a, {b}: [c]", "empty": {}}')).toBe(
      '{\n  "amount": 250.0,\n  "ids": [\n    1,\n    2\n  ],\n  "note": "a, {b}: [c]",\n  "empty": {}\n}',
    );
    expect(indentJson('{"a": "quote \\" inside"}')).toBe('{\n  "a": "quote \\" inside"\n}');
    expect(indentJson('{not json')).toBeNull();
  });

  it('maps step keys', () => {
    expect(stepForKey('j', 0, 3)).toBe(1);
    expect(stepForKey('ArrowDown', 2, 3)).toBe(2);
    expect(stepForKey('k', 0, 3)).toBe(0);
    expect(stepForKey('ArrowUp', 2, 3)).toBe(1);
    expect(stepForKey('Home', 2, 3)).toBe(0);
    expect(stepForKey('End', 0, 3)).toBe(2);
    expect(stepForKey('x', 0, 3)).toBeNull();
    expect(stepForKey('j', 0, 0)).toBeNull();
  });
});
