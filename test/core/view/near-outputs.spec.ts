import { describe, expect, it } from 'vitest';
import { editDistance, nearThingsSaid, type SaidText } from '../../../src/core/view/near-outputs';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';

const said = (...texts: string[]): SaidText[] => texts.map((text, i) => ({ stepIndex: i * 2, messageIndex: i * 4 + 1, text }));
const brief = (output: string, s: SaidText[]) => nearThingsSaid(output, s).map((n) => [n.text, n.kind, n.stepIndex]);

describe('nearThingsSaid', () => {
  it('finds the parts of a sum the agent never gave, each at its first saying, with its span', () => {
    const s = said('Order A is $120.50 and order B is $79.25.', 'Refund of $15.30 for the lamp, and $120.50 again.');
    const near = nearThingsSaid('215.05', s);
    expect(near.map((n) => [n.text, n.kind, n.stepIndex, n.detail])).toEqual([
      ['120.50', 'part-of-sum', 0, '120.50 + 79.25 + 15.30 = 215.05'],
      ['79.25', 'part-of-sum', 0, '120.50 + 79.25 + 15.30 = 215.05'],
      ['15.30', 'part-of-sum', 2, '120.50 + 79.25 + 15.30 = 215.05'],
    ]);
    expect(s[1]!.text.slice(near[2]!.span.start, near[2]!.span.end)).toBe('15.30');
  });

  it('numbers within a few percent, and the same digits', () => {
    expect(brief('1286', said('The total is $1,287 or about 1,250.', 'Or 128.6, or 6821, or 2000.'))).toEqual([
      ['1,287', 'within-percent', 0],
      ['1,250', 'within-percent', 0],
      ['128.6', 'same-digits', 2],
      ['6821', 'same-digits', 2],
    ]);
    expect(nearThingsSaid('1126.04', said('about 1126.0 in all'))[0]).toMatchObject({ text: '1126.0', detail: '0.04 below' });
  });

  it('an id: ids a digit away; dates, ranges, list numbers and ids are no amounts', () => {
    expect(brief('286422338955', said('tracking 286422338956 and 182736455'))).toEqual([['286422338956', 'same-digits', 0]]);
    // 28 + 05 + 4 + … would add up to 1786 only as pieces of dates and list numbers.
    expect(brief('37', said('1. On 2024-05-28 at 10:30, for 5-7 days', '4. The fee'))).toEqual([]);
  });

  it('does not call a chance sum of many small whole amounts a sum', () => {
    const amounts = Array.from({ length: 30 }, (_, i) => `$${100 + i * 37}`).join(', ');
    expect(nearThingsSaid('1786', said(amounts)).filter((n) => n.kind === 'part-of-sum')).toEqual([]);
  });

  it('words a small edit away; nothing for words far off or said exactly', () => {
    expect(brief('Chicago', said('You live in Chicag, right? Or in Chicago?', 'Or Boston.'))).toEqual([['Chicag', 'small-edit', 0]]);
    expect(brief('943 Maple Drive', said('at 943 Maple Driv now'))).toEqual([['943 Maple Driv', 'small-edit', 0]]);
    expect(brief('white', said('with what'))).toEqual([]);
  });

  it('editDistance stops at its limit', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describeShared('near things said on grok-4-tool-calling-retail episode 16', () => {
  it('the missing 8276.23 lists 3131.10, 4777.75 and 367.38, the parts of the sum the agent said', () => {
    const view = evaluatedSharedRun('grok-4-tool-calling-retail.json').session.view(16);
    if ('error' in view) throw new Error(view.error);
    const missing = view.outputs!.find((o) => o.output === '8276.23')!;
    expect(missing.found).toBe(false);
    expect(missing.near.map((n) => n.text)).toEqual(['3131.10', '4777.75', '367.38']);
    expect(missing.near.every((n) => n.kind === 'part-of-sum' && n.detail === '3131.10 + 4777.75 + 367.38 = 8276.23')).toBe(true);
    for (const n of missing.near) {
      const step = view.steps[n.stepIndex]!;
      expect(step.isRespond).toBe(true);
      expect(step.messageIndex).toBe(n.messageIndex);
      expect(step.respondText!.slice(n.span.start, n.span.end)).toBe(n.text);
    }
    expect(view.outputs!.filter((o) => o.found).every((o) => o.near.length === 0)).toBe(true);
  });
});
