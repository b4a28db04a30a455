import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { DbDiff } from '../../src/features/episode/db-diff';
import { evaluatedSharedRun } from '../support/fixtures';
import { describeShared } from '../support/shared';

const noop = (): void => {};

const fieldItems = (file: string, episode: number): string[] => {
  const view = evaluatedSharedRun(file).session.view(episode);
  if ('error' in view) throw new Error(view.error);
  const html = renderToString(<DbDiff view={view} onStep={noop} onReference={noop} />);
  return html.split('data-testid="diff-field"').slice(1);
};

describeShared('DB diff wording: the last call that wrote each field', () => {
  it('grok-4 retail episode 104: step 20 wrote the unchanged New York address, so it is named for all four fields', () => {
    const items = fieldItems('grok-4-tool-calling-retail.json', 104);
    expect(items).toHaveLength(4);
    for (const li of items) {
      expect(li).toContain('last written by <!-- -->step 20');
      expect(li).toContain('last written by reference action <!-- -->3');
      expect(li).not.toContain('touched it');
    }
  });

  it('gpt-4o airline episode 3: a field no agent call wrote says so; the flights update wrote the prices it copied', () => {
    const items = fieldItems('gpt-4o-airline.json', 3);
    const price = items.find((li) => li.includes('>flights[0].price<'));
    expect(price).toContain('last written by reference action <!-- -->1');
    const bags = items.find((li) => li.includes('>total_baggages<'));
    expect(bags).toContain('last written by reference action <!-- -->2');
    expect(bags).toContain('initial value: no agent call touched it');
  });
});
