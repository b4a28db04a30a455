import { describe, expect, it } from 'vitest';
import { fieldDiff } from '../../../src/core/view/field-diff';
import type { PyValue } from '../../../src/core/py/value';

const rec = (items: PyValue[]): PyValue =>
  new Map<string, PyValue>([
    ['exchange_new_items', items],
    ['n', 1n],
  ]);

describe('fieldDiff', () => {
  it('shows an array element replaced in place as one changed element, not as one added and one removed', () => {
    const changes = fieldDiff(rec(['2051947368']), rec(['6619380254']));
    expect(changes).toEqual([{ path: ['exchange_new_items', 0], kind: 'changed', agent: '2051947368', reference: '6619380254', intVsFloat: false }]);
  });

  it('still lists a real insertion or removal, and goes inside replaced dicts', () => {
    expect(fieldDiff(rec(['a', 'b']), rec(['a'])).map((c) => [c.path, c.kind])).toEqual([[['exchange_new_items', 1], 'added']]);
    expect(fieldDiff(rec(['a']), rec(['a', 'b'])).map((c) => [c.path, c.kind])).toEqual([[['exchange_new_items', 1], 'removed']]);
    const dict = (price: number): PyValue =>
      new Map<string, PyValue>([
        ['item_id', '1'],
        ['price', price],
      ]);
    const inner = fieldDiff(rec([dict(2.5)]), rec([dict(3.5)]));
    expect(inner.map((c) => [c.path, c.kind])).toEqual([[['exchange_new_items', 0, 'price'], 'changed']]);
  });
});
