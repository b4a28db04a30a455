import { describe, expect, it } from 'vitest';
import type { RecordLine, StepView } from '../../src/core/contract';
import { chunkLines, touchedRecords } from '../../src/features/episode/db-state';
import { differingSpans, snippet, splitSpan } from '../../src/ui/text';

describe('touchedRecords', () => {
  const change = (table: string, key: string, after: string | null) => ({
    table,
    key,
    existedBefore: false,
    afterLines: after === null ? null : [{ text: after, path: '(whole record)', marked: false }],
    fields: [],
  });
  const step = (index: number, changes: ReturnType<typeof change>[]) => ({ index, changes }) as unknown as StepView;
  const steps = [step(0, []), step(1, [change('users', 'a', 'A1')]), step(2, [change('orders', 'x', 'X1')]), step(3, [change('users', 'a', 'A2')])];

  it('keeps the latest version of each record, in first-touched order, marking the selected step', () => {
    expect(touchedRecords(steps, 0)).toEqual([]);
    const at2 = touchedRecords(steps, 2);
    expect(at2.map((r) => [r.id, r.lines?.[0]?.text, r.current !== null])).toEqual([
      ['users/a', 'A1', false],
      ['orders/x', 'X1', true],
    ]);
    const at3 = touchedRecords(steps, 3);
    expect(at3.map((r) => [r.id, r.lines?.[0]?.text, r.firstStep, r.lastStep, r.current !== null])).toEqual([
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

  it('groups record lines into marked and unmarked runs', () => {
    const line = (text: string, marked: boolean): RecordLine => ({ text, path: 'x', marked });
    const lines = [line('{', false), line('  "a": 1,', true), line('  "b": 2', true), line('}', false)];
    expect(chunkLines(lines, true)).toEqual([
      { text: '{', marked: false },
      { text: '  "a": 1,\n  "b": 2', marked: true },
      { text: '}', marked: false },
    ]);
    expect(chunkLines(lines, false)).toEqual([{ text: '{\n  "a": 1,\n  "b": 2\n}', marked: false }]);
  });
});
