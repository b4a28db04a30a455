import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { OutputsPanel } from '../../src/features/episode/outputs-panel';
import { evaluatedSharedRun } from '../support/fixtures';
import { describeShared } from '../support/shared';

const noop = (): void => {};

describeShared('outputs panel: near things said for a missing output (grok-4 retail episode 16)', () => {
  it('lists 3131.10, 4777.75 and 367.38 under the missing 8276.23, each with a button to its step', () => {
    const view = evaluatedSharedRun('grok-4-tool-calling-retail.json').session.view(16);
    if ('error' in view) throw new Error(view.error);
    const html = renderToString(<OutputsPanel view={view} active={null} onFound={noop} onElsewhere={noop} onNear={noop} />);
    const row = html
      .split('data-testid="output-row"')
      .slice(1)
      .find((r) => r.includes('>8276.23<'))!;
    expect(row).toContain('data-found="false"');
    expect(row).toContain('data-testid="near-sum"');
    expect(row).toContain('3131.10 + 4777.75 + 367.38 = 8276.23');
    const items = row.split('data-testid="near-said"').slice(1);
    expect(items.map((li) => /<code[^>]*>([^<]*)<\/code>/.exec(li)?.[1])).toEqual(['3131.10', '4777.75', '367.38']);
    for (const [i, li] of items.entries()) {
      const n = view.outputs!.find((o) => o.output === '8276.23')!.near[i]!;
      expect(li).toContain(`aria-label="Show &quot;${n.text}&quot;, said in step ${n.stepIndex + 1}"`);
    }
  });
});
