import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { judgedApart } from '../../src/core/contract';
import { JudgedApartWarning } from '../../src/features/review/compare-view';
import { evaluatedSharedRun } from '../support/fixtures';
import { describeShared } from '../support/shared';

const warning = (a: string, b: string): string => {
  const da = evaluatedSharedRun(a).session.detection();
  const db = evaluatedSharedRun(b).session.detection();
  return renderToString(<JudgedApartWarning apart={judgedApart(da, db)} />).replace(/<!-- -->/g, '');
};

describeShared('compare view: the warning when A and B were judged differently', () => {
  it('gpt-4o-airline (7362a17, outputs-only) against grok-4-tool-calling-airline (14bf0ef, db-and-outputs): data and rule named, flips not counted', () => {
    const html = warning('gpt-4o-airline.json', 'grok-4-tool-calling-airline.json');
    expect(html).toContain('data-testid="compare-judged-apart"');
    expect(html).toContain('A and B were judged differently:');
    expect(html).toContain('data version 7362a17 (A) vs 14bf0ef (B); rule outputs-only (A) vs db-and-outputs (B).');
    expect(html).toContain('Flips are not counted');
  });

  it('two runs judged alike: no warning', () => {
    expect(warning('grok-4-fast-act-airline.json', 'grok-4-tool-calling-airline.json')).toBe('');
  });
});
