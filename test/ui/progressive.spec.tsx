import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { rowCost, ROW_COST, sliceEnd, useProgressiveRows } from '../../src/ui/progressive';

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
