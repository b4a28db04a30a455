import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { rowCost, ROW_COST, sliceEnd, useProgressiveRows, whenDrawn } from '../../src/ui/progressive';

describe('sliceEnd: how far a slice of a long list draws', () => {
  const costs = [10, 10, 10, 10, 10, 10];

  it('draws the rows that fit in the budget, at least one, never past the end', () => {
    expect(sliceEnd(costs, 0, 30, -1)).toBe(3);
    expect(sliceEnd(costs, 0, 29, -1)).toBe(2);
    expect(sliceEnd(costs, 2, 0, -1), 'one row even when it costs more than the budget').toBe(3);
    expect(sliceEnd([1000, 1], 0, 10, -1)).toBe(1);
    expect(sliceEnd(costs, 4, 1000, -1)).toBe(6);
    expect(sliceEnd(costs, 6, 1000, -1), 'nothing left').toBe(6);
  });

  it('draws through the row needed whatever it costs', () => {
    expect(sliceEnd(costs, 0, 20, 4)).toBe(5);
    expect(sliceEnd(costs, 0, 0, 5)).toBe(6);
    expect(sliceEnd(costs, 1, 1000, 2), 'the budget still fills past it').toBe(6);
  });

  it('a row costs its frame and its characters', () => {
    expect(rowCost(0)).toBe(ROW_COST);
    expect(rowCost(2000)).toBe(ROW_COST + 2000);
  });
});

function List(props: { costs: readonly number[] }) {
  const shown = useProgressiveRows(props.costs, -1, props.costs);
  return <p>{shown}</p>;
}

it('without a window (server-side rendering, the specs that render a screen to a string) every row is drawn at once', () => {
  const costs = Array.from({ length: 500 }, () => rowCost(5000));
  expect(renderToString(<List costs={costs} />)).toBe('<p>500</p>');
});

describe('whenDrawn: a link to a row the list has not drawn yet', () => {
  afterEach(() => vi.unstubAllGlobals());
  /** A page whose element `id` is drawn at frame `at` (never when null), frames run one by one. */
  const page = (at: number | null) => {
    let frame = 0;
    const frames: (() => void)[] = [];
    const el = { id: 'tau2-call-250' };
    vi.stubGlobal('document', { getElementById: (id: string) => (at !== null && frame >= at && id === el.id ? el : null) });
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    const run = (n: number): void => {
      for (let k = 0; k < n && frames.length > 0; k++) {
        frame++;
        frames.shift()!();
      }
    };
    return { el, run, pending: () => frames.length };
  };

  it('runs at once for a drawn element, and at the frame a later slice draws it', () => {
    const now = page(0);
    const seen: unknown[] = [];
    whenDrawn('tau2-call-250', (e) => seen.push(e));
    expect(seen).toEqual([now.el]);
    const later = page(3);
    whenDrawn('tau2-call-250', (e) => seen.push(e));
    expect(seen).toHaveLength(1);
    later.run(2);
    expect(seen).toHaveLength(1);
    later.run(1);
    expect(seen).toEqual([now.el, later.el]);
    expect(later.pending()).toBe(0);
  });

  it('gives up quietly when the element never comes (and finds one by a query too)', () => {
    const never = page(null);
    let called = 0;
    whenDrawn('tau2-call-250', () => called++, 5);
    never.run(10);
    expect(called).toBe(0);
    expect(never.pending()).toBe(0);
    const q = page(1);
    whenDrawn(
      () => document.getElementById('tau2-call-250'),
      () => called++,
    );
    q.run(1);
    expect(called).toBe(1);
  });
});
