import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { DbDiff } from '../../src/features/episode/db-diff';
import { evaluatedSharedRun } from '../support/fixtures';
import { describeShared } from '../support/shared';

const noop = (): void => {};

describeShared('DB diff wording for values no step changed (gpt-4o-airline episode 3)', () => {
  it('says "initial value" instead of naming a reference action that never wrote the field', () => {
    const view = evaluatedSharedRun('gpt-4o-airline.json').session.view(3);
    if ('error' in view) throw new Error(view.error);
    const html = renderToString(<DbDiff view={view} onStep={noop} onReference={noop} />);
    const items = html.split('data-testid="diff-field"').slice(1);
    const price = items.find((li) => li.includes('>flights[0].price<'));
    expect(price).toBeDefined();
    expect(price).toContain('initial value: no reference action changed it');
    expect(price).not.toContain('written by reference action');
    const bags = items.find((li) => li.includes('>total_baggages<'));
    expect(bags).toContain('written by reference action <!-- -->2');
    expect(bags).toContain('initial value: no agent step changed it');
  });
});
