/**
 * The τ² verdict says where `tau2 evaluate-trajs` would judge otherwise than the run was judged (#502): a crafted
 * `llm_agent_solo_gt` run of the invented mock sample (solo at run time, not for evaluate-trajs' is_solo_mode), rendered
 * as the simulation screen's verdict and its "Not counted by τ²" list render it.
 */
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { Tau2Verdict } from '../../src/features/tau2/checks';
import { Tau2Findings } from '../../src/features/tau2/findings';
import { mockSample } from '../support/tau2-sample';
import { soloRun } from '../support/tau2-solo';

it('the run-time verdict, evaluate-trajs’ other reward under it and among the findings', async () => {
  const s = await mockSample(soloRun('llm_agent_solo_gt'));
  const view = s.simView(0);
  const verdict = renderToString(<Tau2Verdict view={view} />).replaceAll('<!-- -->', '');
  expect(view.agrees).toBe(true);
  const line = /data-testid="tau2-evaluate-trajs"[^>]*>([^<]*)</.exec(verdict)?.[1] ?? '';
  expect(line).toMatch(/^tau2 evaluate-trajs \(v1\.0\.1\) would give reward 0; judged as the run was judged, reward 1: it decides solo mode otherwise/);
  expect(renderToString(<Tau2Findings view={view} onCall={() => undefined} onMessage={() => undefined} />)).toContain(
    'tau2 evaluate-trajs (v1.0.1) would give reward 0',
  );
});

it('a simulation both rules judge alike says nothing of it', async () => {
  const s = await mockSample(soloRun('llm_agent_solo'));
  expect(renderToString(<Tau2Verdict view={s.simView(0)} />)).not.toContain('tau2-evaluate-trajs');
});
