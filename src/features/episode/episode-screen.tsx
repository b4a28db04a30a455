import { useCallback, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import type { Elsewhere, EpisodeView, OutputView } from '../../core/contract';
import type { Detection } from '../../core/contract';
import { DbAtStep } from './db-at-step';
import { DbDiff } from './db-diff';
import { Dialogue, type Mark, type Reveal } from './dialogue';
import { OutputsPanel } from './outputs-panel';
import { ReferenceActions } from './reference-actions';
import { StepBar } from './step-bar';
import { FOCUS_RING_SKY } from '../../ui/focus';
import { useStepKeys } from './use-step-keys';
import { VerdictPanel, type PanelTab } from './verdict-panel';

export interface EpisodeScreenProps {
  readonly view: EpisodeView;
  /** Selected executed-step index, 0..view.steps.length-1. */
  readonly step: number;
  readonly onStep: (n: number) => void;
  readonly detection: Detection;
}

/** The episode screen: verdict, dialogue with step cursor, DB at the step, DB diff, required outputs. */
export function EpisodeScreen(props: EpisodeScreenProps): JSX.Element {
  return <Screen key={props.view.index} {...props} />;
}

function initialTab(view: EpisodeView): PanelTab {
  const codes = new Set(view.verdict.reasons.map((r) => r.code));
  if (codes.has('db-mismatch')) return 'diff';
  if (codes.has('missing-output')) return 'outputs';
  return 'db';
}

const TABS: readonly PanelTab[] = ['db', 'diff', 'outputs'];

function Screen({ view, step, onStep, detection }: EpisodeScreenProps): JSX.Element {
  const count = view.steps.length;
  const cursor = count === 0 ? 0 : Math.min(Math.max(step, 0), count - 1);
  const [tab, setTab] = useState<PanelTab>(() => initialTab(view));
  const [mark, setMark] = useState<Mark | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [reference, setReference] = useState<{ index: number; nonce: number } | null>(null);
  const [activeOutput, setActiveOutput] = useState<string | null>(null);
  const nonce = useRef(0);
  const latest = useRef({ onStep, view });
  useLayoutEffect(() => {
    latest.current = { onStep, view };
  });

  const select = useCallback((n: number) => {
    const { view: v, onStep: go } = latest.current;
    if (Number.isInteger(n) && n >= 0 && n < v.steps.length) go(n);
  }, []);
  const revealMessage = useCallback((messageIndex: number) => setReveal({ messageIndex, nonce: ++nonce.current }), []);
  const jump = useCallback(
    (n: number) => {
      select(n);
      const s = latest.current.view.steps[n];
      if (s) revealMessage(s.messageIndex);
    },
    [select, revealMessage],
  );
  const showReference = useCallback((index: number) => {
    setTab('diff');
    setReference({ index, nonce: ++nonce.current });
  }, []);
  const onFound = useCallback(
    (o: OutputView) => {
      if (o.stepIndex === null || o.messageIndex === null || o.span === null) return;
      setMark({ messageIndex: o.messageIndex, target: 'respond', span: o.span, label: `required output "${o.output}" matched here` });
      setActiveOutput(o.output);
      jump(o.stepIndex);
    },
    [jump],
  );
  const onElsewhere = useCallback(
    (o: OutputView, place: Elsewhere) => {
      setMark({ messageIndex: place.messageIndex, target: 'content', span: place.span, label: `"${o.output}" here does not count` });
      setActiveOutput(o.output);
      const m = latest.current.view.messages[place.messageIndex];
      const owner = m?.stepIndex ?? m?.observationOf ?? null;
      if (owner !== null) select(owner);
      revealMessage(place.messageIndex);
    },
    [select, revealMessage],
  );

  useStepKeys(cursor, count, select);

  const gridRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const measure = (): void => grid.style.setProperty('--ep-top', `${Math.max(0, Math.round(grid.getBoundingClientRect().top + window.scrollY))}px`);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  const found = view.outputs?.filter((o) => o.found).length ?? 0;
  const hashesDiffer = view.verdict.agentHash !== view.verdict.gtHash;
  const tabLabel: Readonly<Record<PanelTab, string>> = {
    db: `DB at step ${count === 0 ? '–' : cursor + 1}`,
    diff: hashesDiffer ? `DB diff (${view.diff.length})` : 'DB diff (none)',
    outputs: view.outputs === null ? 'Outputs (none)' : `Outputs (${found}/${view.outputs.length})`,
  };
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const i = TABS.indexOf(tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    setTab(next);
    document.getElementById(`episode-tab-${next}`)?.focus();
  };
  const column = 'flex min-h-0 flex-col overflow-hidden rounded-md border border-slate-200 @3xl:h-[max(30rem,calc(100dvh-var(--ep-top,16rem)-0.75rem))]';

  return (
    <div className="@container flex flex-col gap-2 p-2 text-slate-900" data-testid="episode-screen" data-episode={view.index} data-step={cursor}>
      <VerdictPanel view={view} detection={detection} onShow={setTab} onStep={select} />
      {view.instruction !== '' && (
        <details className="rounded border border-slate-200 bg-white px-2 py-1 text-xs text-slate-700">
          <summary className={`cursor-pointer select-none rounded font-medium ${FOCUS_RING_SKY}`}>
            Task instruction given to the user simulator <span className="font-normal text-slate-500">· agent strategy: {view.strategy}</span>
          </summary>
          <p className="mt-1 whitespace-pre-wrap">{view.instruction}</p>
        </details>
      )}
      <div ref={gridRef} className="grid gap-2 @3xl:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)]">
        <section aria-label="Dialogue and step cursor" className={`${column} h-[75dvh] bg-slate-50`}>
          <StepBar steps={view.steps} step={cursor} onSelect={select} />
          <div className="min-h-0 flex-1">
            <Dialogue view={view} step={cursor} mark={mark} reveal={reveal} onSelect={select} />
          </div>
        </section>
        <section aria-label="Episode details" className={`${column} max-h-[85dvh] bg-white @3xl:max-h-none`}>
          <div role="tablist" aria-label="Episode details" className="flex shrink-0 gap-1 overflow-x-auto border-b border-slate-200 bg-slate-50 px-2 pt-1.5" onKeyDown={onTabKey}>
            {TABS.map((t) => (
              <button
                key={t}
                id={`episode-tab-${t}`}
                type="button"
                role="tab"
                aria-selected={tab === t}
                aria-controls={`episode-panel-${t}`}
                tabIndex={tab === t ? 0 : -1}
                onClick={() => setTab(t)}
                data-testid={`tab-${t}`}
                className={`-mb-px whitespace-nowrap rounded-t border px-2.5 py-1 text-xs font-medium ${FOCUS_RING_SKY} ${
                  tab === t ? 'border-slate-200 border-b-white bg-white text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'
                }`}
              >
                {tabLabel[t]}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`episode-panel-${tab}`} aria-labelledby={`episode-tab-${tab}`} data-scroll className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-2">
            {tab === 'db' && <DbAtStep steps={view.steps} step={cursor} onSelect={jump} />}
            {tab === 'diff' && (
              <div className="space-y-3">
                <DbDiff view={view} onStep={jump} onReference={showReference} />
                <ReferenceActions reference={view.reference} selected={reference?.index ?? null} nonce={reference?.nonce ?? 0} />
              </div>
            )}
            {tab === 'outputs' && <OutputsPanel view={view} active={activeOutput} onFound={onFound} onElsewhere={onElsewhere} />}
          </div>
        </section>
      </div>
    </div>
  );
}
