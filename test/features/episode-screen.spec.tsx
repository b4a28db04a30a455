import { renderToString } from 'react-dom/server';
import { beforeAll, expect, it } from 'vitest';
import type { EpisodeView } from '../../src/core/view/episode-view';
import { InspectSession, type Detection } from '../../src/core/session/session';
import { DbDiff } from '../../src/features/episode/db-diff';
import { Dialogue } from '../../src/features/episode/dialogue';
import { EpisodeScreen } from '../../src/features/episode/episode-screen';
import { OutputsPanel } from '../../src/features/episode/outputs-panel';
import { evaluatedSharedRun, sharedRun, sharedVersions } from '../support/fixtures';
import { describeShared } from '../support/shared';

const AIRLINE =
  'synthetic-airline-test-gold+gold-no-consent+drop-write+wrong-arg+float-amount+bad-kwargs+transfer-midway+outputs-comma+error-then-retry+step-limit-s1.json';
const RETAIL = 'synthetic-retail-test-outputs-wrong+outputs-comma+outputs-beside-toolcall+unknown-tool-s1.json';

/** A run judged on the shared data; the shared evaluation unless a data version is forced. */
function load(file: string, dataVersion?: string): { session: InspectSession; detection: Detection } {
  if (!dataVersion) {
    const { session } = evaluatedSharedRun(file);
    return { session, detection: session.detection() };
  }
  const session = new InspectSession(sharedRun(file), { dataVersion });
  const detection = session.useData(sharedVersions(session.domain));
  return { session, detection };
}

function viewOf(session: InspectSession, i: number): EpisodeView {
  const v = session.view(i);
  if ('error' in v) throw new Error(v.error);
  return v;
}

const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const noop = (): void => {};

describeShared('episode screen (server-rendered with real episode views)', () => {
  let airline: ReturnType<typeof load> | null = null;
  let retail: ReturnType<typeof load> | null = null;
  beforeAll(() => {
    airline = load(AIRLINE);
    retail = load(RETAIL);
  });

  it('shows the verdict, both full hashes and the int-vs-float diff of a float-amount episode', () => {
    const view = viewOf(airline!.session, 208);
    expect(view.verdict.agentHash).not.toBe(view.verdict.gtHash);
    const html = renderToString(<EpisodeScreen view={view} step={4} onStep={noop} detection={airline!.detection} />);
    const t = text(html);
    expect(t).toContain(view.verdict.agentHash);
    expect(t).toContain(view.verdict.gtHash);
    expect(t).toContain(view.verdict.sentence);
    expect(t).toContain('hashes differ');
    expect(t).toContain('DB mismatch');
    expect(t).toContain('Python prints 250 and 250.0 differently');
    expect(t).toContain('int vs float only');
    expect(t).toContain('payment_history[0].amount');
    expect(t).toContain('500.0');
    expect(t).toContain('last written by step 5');
    expect(t).toContain('last written by reference action 2');
    expect(t).toContain('Reference actions');
    expect(html).toContain('aria-current="step"');
    expect(html).toContain('data-step="4"');
    expect(html).not.toMatch(/dangerouslySetInnerHTML|<script/);
  });

  it('links each diff field to the agent step and the reference action that wrote it', () => {
    const view = viewOf(airline!.session, 208);
    const html = renderToString(<DbDiff view={view} onStep={noop} onReference={noop} />);
    const fields = view.diff.flatMap((d) => d.fields);
    expect((html.match(/data-testid="diff-field"/g) ?? []).length).toBe(fields.length);
    expect(fields.every((f) => f.intVsFloat && f.agentStep === 4 && f.referenceStep === 1)).toBe(true);
  });

  it('shows found outputs with the exact matched span of the respond text, and where else they appear', () => {
    const view = viewOf(airline!.session, 208);
    const html = renderToString(<OutputsPanel view={view} active={null} onFound={noop} onElsewhere={noop} onNear={noop} />);
    const t = text(html);
    expect(t).toContain('Only respond messages count');
    for (const o of view.outputs!) {
      expect(o.found).toBe(true);
      expect(html).toMatch(new RegExp(`<mark[^>]*>${o.output}</mark>`));
    }
    expect(t).toContain('Here is what you asked for: 327 and 1000 and 1786.');
    expect(html).toContain('data-kind="tool-result"');
    expect(t).toContain('in a tool result');
  });

  it('highlights the matched span inside the dialogue', () => {
    const view = viewOf(airline!.session, 208);
    const o = view.outputs!.find((x) => x.output === '1000')!;
    const mark = { messageIndex: o.messageIndex!, target: 'respond' as const, span: o.span!, label: 'match' };
    const html = renderToString(<Dialogue view={view} step={o.stepIndex!} mark={mark} reveal={null} onSelect={noop} />);
    expect(html).toMatch(/Here is what you asked for: 327 and <mark[^>]*>1000<\/mark> and 1786\./);
  });

  it('opens the outputs of an episode with missing outputs, naming places that do not count', () => {
    const view = viewOf(retail!.session, 43);
    expect(view.strategy).toBe('react');
    const html = renderToString(<EpisodeScreen view={view} step={0} onStep={noop} detection={retail!.detection} />);
    const t = text(html);
    expect(html).toContain('data-testid="outputs-panel"');
    expect(t).toContain('missing output');
    expect(t).toContain('Appears only where it does not count');
    expect(t).toContain('Sent to the user (respond)');
    for (const o of view.outputs!) expect(t).toContain(o.output);
    const found = view.outputs!.find((o) => o.found)!;
    const step = view.steps[found.stepIndex!]!;
    const { start, end } = found.span!;
    expect(html).toContain(`>${step.respondText!.slice(start, end)}</mark>`);
  });

  it('shows recorded vs replayed observations where they differ (historical run replayed on the pinned data)', () => {
    // gpt-4o-airline was recorded on 7362a17 data ("province"); forcing 14bf0ef ("state") changes user lookups.
    const historical = load('gpt-4o-airline.json', '14bf0ef');
    const view = viewOf(historical.session, 0);
    const s = view.steps.find((x) => x.observationDiffers)!;
    expect(s.recordedObservation).toContain('"province"');
    expect(s.observation).toContain('"state"');
    const html = renderToString(<Dialogue view={view} step={s.index} mark={null} reveal={null} onSelect={noop} />);
    const t = text(html);
    expect(t).toContain('Recorded in the file');
    expect(t).toContain('Replayed by tau-inspect');
    expect(t).toContain(s.observation);
  });

  it('marks an unknown tool', () => {
    const view = viewOf(
      retail!.session,
      retail!.session.records.findIndex((r) => r.extra.synthetic_kind === 'unknown-tool'),
    );
    const s = view.steps.find((x) => x.unknownTool)!;
    const t = text(renderToString(<Dialogue view={view} step={s.index} mark={null} reveal={null} onSelect={noop} />));
    expect(t).toContain(`Unknown action ${s.action}`);
    expect(t).toContain('unknown tool');
  });

  it('explains an episode that never ended, with its hypothetical reward', () => {
    const view = viewOf(airline!.session, 450);
    const t = text(renderToString(<EpisodeScreen view={view} step={29} onStep={noop} detection={airline!.detection} />));
    expect(t).toContain('never ended');
    expect(t).toContain('Had it ended after the last step: 1.0');
    expect(t).toContain('Step 30 of 30');
  });
});
