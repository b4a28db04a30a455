/**
 * The τ² verdict says where `tau2 evaluate-trajs` would judge otherwise than the run was judged (#502): a crafted
 * strict-replay case of the invented mock sample (its recorded update_task_status answer rewritten), rendered as the
 * simulation screen's verdict and its "Not counted by τ²" list render it.
 */
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { Tau2Findings, Tau2Verdict } from '../../src/features/tau2/checks';
import { mockSample } from '../support/tau2-sample';

it('a strict replay’s error as the verdict, evaluate-trajs’ pass under it and among the findings', async () => {
  const s = await mockSample((run) => {
    const sim = run.simulations[0]! as { messages: { role: string; id?: string; content: string | null }[] };
    const tool = sim.messages.find((m) => m.role === 'tool' && m.id === 'c2')!;
    tool.content = tool.content!.replace('Order standing desks', 'Order two standing desks');
  });
  const view = s.simView(0);
  const verdict = renderToString(<Tau2Verdict view={view} />).replaceAll('<!-- -->', '');
  expect(verdict).toContain('Not judged: ValueError: strict replay (as τ² judges when the run is made): call 1 (update_task_status)');
  // No verdict, so nothing to hold against the recorded pass.
  expect(view.agrees).toBeNull();
  expect(verdict).not.toContain('≠ recorded');
  const line = /data-testid="tau2-evaluate-trajs"[^>]*>([^<]*)</.exec(verdict)?.[1] ?? '';
  expect(line).toMatch(/^tau2 evaluate-trajs \(v1\.0\.1\) would give reward 1; judged as the run was judged, no verdict/);
  expect(renderToString(<Tau2Findings view={view} />)).toContain('tau2 evaluate-trajs (v1.0.1) would give reward 1');
  // A simulation both rules judge alike says nothing of it.
  expect(renderToString(<Tau2Verdict view={s.simView(1)} />)).not.toContain('tau2-evaluate-trajs');
});
