import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react';
import type { Elsewhere, EpisodeView, NearSaid, OutputView } from '../../core/contract';
import type { Detection } from '../../core/contract';
import { Button } from '../../ui/button';
import { FOCUS_RING_SKY } from '../../ui/focus';
import { DbAtStep } from './db-at-step';
import { DbDiff } from './db-diff';
import { Dialogue, type Mark, type Reveal } from './dialogue';
import { OutputsPanel } from './outputs-panel';
import { ReferenceActions } from './reference-actions';
import { searchMarks } from './search-hits';
import { StepBar } from './step-bar';
import { TaskInstruction } from './task-instruction';
import { VerdictPanel, type PanelTab } from './verdict-panel';

/**
 * A panel of the side column beyond the built-in ones (findings, walkthrough, alignment…). The
 * app passes them in (features do not import each other); see `SIDE_PANELS` in
 * `src/app/episode-body.tsx`, the one place they are mounted.
 */
export interface SidePanel {
  readonly id: string;
  readonly label: string | ((view: EpisodeView) => string);
  readonly render: (ctx: { readonly view: EpisodeView; readonly step: number; readonly onStep: (n: number) => void; readonly nav: EpisodeNav }) => ReactNode;
}

/** One click from an analysis line to what it is about. */
export interface EpisodeNav {
  /** Select a step and scroll the dialogue to its message. */
  step(n: number): void;
  /** Scroll the dialogue to a message (a tool result, text beside a tool call) and select its step. */
  message(index: number): void;
  /** Show a reference action in the DB diff tab. */
  reference(index: number): void;
  /** Show a differing record (`table/key`) in the DB diff tab. */
  record(name: string): void;
}

/** The workspace's remembered look, owned by the app's store; the screen works without it too. */
export interface ScreenLayout {
  readonly verdictOpen: boolean;
  readonly sideHidden: boolean;
  readonly instructionOpen: boolean;
}

export interface EpisodeScreenProps {
  readonly view: EpisodeView;
  /** Selected executed-step index, 0..view.steps.length-1. */
  readonly step: number;
  readonly onStep: (n: number) => void;
  readonly detection: Detection;
  readonly panels?: readonly SidePanel[];
  readonly layout?: ScreenLayout;
  readonly onToggle?: (flag: keyof ScreenLayout) => void;
  /** The overview's search text and which of its hits in this episode to show (modulo their number). */
  readonly search?: { readonly query: string; readonly index: number; readonly nonce: number; readonly onMove: (delta: 1 | -1) => void };
  /** Shown above the dialogue (the what-if bar). */
  readonly toolbar?: ReactNode;
  /** Panels under the dialogue (never above it), given the ways to point into the episode. */
  readonly below?: (nav: EpisodeNav) => ReactNode;
}

/** The episode screen: a one-line verdict, the dialogue with its step cursor, and a side column of panels. */
export function EpisodeScreen(props: EpisodeScreenProps): JSX.Element {
  return <Screen key={props.view.index} {...props} />;
}

function initialTab(view: EpisodeView): string {
  const codes = new Set(view.verdict.reasons.map((r) => r.code));
  if (codes.has('db-mismatch')) return 'diff';
  if (codes.has('missing-output')) return 'outputs';
  return 'db';
}

const STANDALONE: ScreenLayout = { verdictOpen: true, sideHidden: false, instructionOpen: true };

function Screen({ view, step, onStep, detection, panels = [], layout: given, onToggle: toggleGiven, search, toolbar, below }: EpisodeScreenProps): JSX.Element {
  const count = view.steps.length;
  const cursor = count === 0 ? 0 : Math.min(Math.max(step, 0), count - 1);
  const [own, setOwn] = useState<ScreenLayout>(STANDALONE);
  const layout = given ?? own;
  const toggle = (flag: keyof ScreenLayout): void => (toggleGiven ? toggleGiven(flag) : setOwn((l) => ({ ...l, [flag]: !l[flag] })));
  const [tab, setTab] = useState<string>(() => initialTab(view));
  const [mark, setMark] = useState<Mark | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [reference, setReference] = useState<{ index: number; nonce: number } | null>(null);
  const [activeOutput, setActiveOutput] = useState<string | null>(null);
  const [recordFocus, setRecordFocus] = useState<{ name: string; nonce: number } | null>(null);
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
  const show = (t: PanelTab | string): void => {
    setTab(t);
    if (layout.sideHidden) toggle('sideHidden');
  };
  const showReference = (index: number): void => {
    show('diff');
    setReference({ index, nonce: ++nonce.current });
  };
  const onFound = useCallback(
    (o: OutputView) => {
      if (o.stepIndex === null || o.messageIndex === null || o.span === null) return;
      setMark({ messageIndex: o.messageIndex, target: 'respond', span: o.span, label: `required output "${o.output}" matched here` });
      setActiveOutput(o.output);
      jump(o.stepIndex);
    },
    [jump],
  );
  const onNear = useCallback(
    (o: OutputView, n: NearSaid) => {
      setMark({ messageIndex: n.messageIndex, target: 'respond', span: n.span, label: `"${n.text}" said here, near the required output "${o.output}"` });
      setActiveOutput(o.output);
      jump(n.stepIndex);
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

  const showMessage = useCallback(
    (messageIndex: number) => {
      const m = latest.current.view.messages[messageIndex];
      const owner = m?.stepIndex ?? m?.observationOf ?? null;
      if (owner !== null) select(owner);
      revealMessage(messageIndex);
    },
    [select, revealMessage],
  );
  const showRecord = useCallback((name: string) => {
    setTab('diff');
    setRecordFocus({ name, nonce: ++nonce.current });
  }, []);
  useEffect(() => {
    if (!recordFocus) return;
    const el = [...document.querySelectorAll('[data-testid="diff-record"]')].find((e) => e.getAttribute('aria-label') === recordFocus.name);
    el?.scrollIntoView({ block: 'nearest' });
  }, [recordFocus]);
  const showReferenceCb = useCallback((index: number) => {
    setTab('diff');
    setReference({ index, nonce: ++nonce.current });
  }, []);
  const nav = useMemo<EpisodeNav>(
    () => ({ step: jump, message: showMessage, reference: showReferenceCb, record: showRecord }),
    [jump, showMessage, showReferenceCb, showRecord],
  );

  // Search hits of the overview's query (found once per query and episode): all marked, the current one scrolled to.
  const query = search?.query ?? '';
  const hits = useMemo(() => searchMarks(view.messages, view.steps, query, view.strategy), [view, query]);
  const hitAt = hits.length === 0 ? -1 : (((search?.index ?? 0) % hits.length) + hits.length) % hits.length;
  const hitNonce = search?.nonce ?? 0;
  useEffect(() => {
    const h = hits[hitAt];
    if (!h) return;
    const m = latest.current.view.messages[h.messageIndex];
    const owner = m?.stepIndex ?? m?.observationOf ?? null;
    if (owner !== null) select(owner);
    setReveal({ messageIndex: h.messageIndex, nonce: ++nonce.current, hit: true });
  }, [hits, hitAt, hitNonce, select]);

  const found = view.outputs?.filter((o) => o.found).length ?? 0;
  const hashesDiffer = view.verdict.agentHash !== view.verdict.gtHash;
  const tabs: readonly { id: string; label: string }[] = [
    { id: 'db', label: `DB at step ${count === 0 ? '–' : cursor + 1}` },
    { id: 'diff', label: hashesDiffer ? `DB diff (${view.diff.length})` : 'DB diff (none)' },
    { id: 'outputs', label: view.outputs === null ? 'Outputs (none)' : `Outputs (${found}/${view.outputs.length})` },
    ...panels.map((p) => ({ id: p.id, label: typeof p.label === 'string' ? p.label : p.label(view) })),
  ];
  const current = tabs.some((t) => t.id === tab) ? tab : 'db';
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const i = tabs.findIndex((t) => t.id === current);
    const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!.id;
    setTab(next);
    document.getElementById(`episode-tab-${next}`)?.focus();
  };
  const extra = panels.find((p) => p.id === current);
  const box = 'flex flex-col overflow-hidden rounded-md border border-slate-200 @4xl/screen:min-h-0';

  return (
    <div
      className="@container/screen flex min-w-0 flex-col gap-2 p-2 text-slate-900 @4xl:h-full @4xl:min-h-0"
      data-testid="episode-screen"
      data-episode={view.index}
      data-step={cursor}
    >
      <VerdictPanel view={view} detection={detection} onShow={show} open={layout.verdictOpen} onToggle={() => toggle('verdictOpen')} />
      <div
        className={`grid gap-2 @4xl/screen:min-h-0 @4xl/screen:flex-1 ${layout.sideHidden ? '' : '@4xl/screen:grid-cols-[minmax(0,1fr)_minmax(22rem,40%)]'}`}
      >
        <section aria-label="Dialogue and step cursor" className={`${box} bg-slate-50`} data-testid="dialogue-column">
          {toolbar}
          <StepBar steps={view.steps} step={cursor} onSelect={select} />
          {query.trim() !== '' && (
            <div className="flex items-center gap-2 border-b border-slate-200 bg-yellow-50 px-2 py-1 text-xs text-slate-700" data-testid="search-hits">
              {hits.length === 0 ? (
                <span>
                  “{query.trim()}” is not in this episode's visible text
                  {view.messages.some((m) => m.toolCalls.length > 0) ? ' (it may be in tool-call arguments)' : ''}.
                </span>
              ) : (
                <>
                  <span className="min-w-0 truncate">
                    “{query.trim()}”:{' '}
                    <span data-testid="search-counter" className="font-semibold tabular-nums">
                      {hitAt + 1} of {hits.length}
                    </span>
                  </span>
                  <Button
                    onClick={() => search?.onMove(-1)}
                    aria-label="Previous search hit (, or Shift+Enter in the search box)"
                    title="Previous hit (, or Shift+Enter in the search box)"
                  >
                    ‹
                  </Button>
                  <Button
                    onClick={() => search?.onMove(1)}
                    aria-label="Next search hit (. or Enter in the search box)"
                    title="Next hit (. or Enter in the search box)"
                  >
                    ›
                  </Button>
                </>
              )}
            </div>
          )}
          <div className="@4xl/screen:min-h-0 @4xl/screen:flex-1">
            <Dialogue view={view} step={cursor} mark={mark} reveal={reveal} onSelect={select} hits={hits} hitAt={hitAt} />
            {below && <BelowSlot render={below} nav={nav} />}
          </div>
        </section>
        <aside aria-label="Episode details" className={`@container ${box} bg-white ${layout.sideHidden ? 'hidden' : ''}`} data-testid="side-column">
          <TaskInstruction instruction={view.instruction} strategy={view.strategy} open={layout.instructionOpen} onToggle={() => toggle('instructionOpen')} />
          <div
            role="tablist"
            aria-label="Episode details"
            className="flex shrink-0 gap-1 overflow-x-auto border-b border-slate-200 bg-slate-50 px-2 pt-1.5"
            onKeyDown={onTabKey}
          >
            {tabs.map((t) => (
              <button
                key={t.id}
                id={`episode-tab-${t.id}`}
                type="button"
                role="tab"
                aria-selected={current === t.id}
                aria-controls={`episode-panel-${t.id}`}
                tabIndex={current === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
                data-testid={`tab-${t.id}`}
                className={`-mb-px whitespace-nowrap rounded-t border px-2.5 py-1 text-xs font-medium ${FOCUS_RING_SKY} ${
                  current === t.id ? 'border-slate-200 border-b-white bg-white text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'
                }`}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`episode-panel-${current}`}
            aria-labelledby={`episode-tab-${current}`}
            data-scroll
            className="p-2 @4xl/screen:min-h-0 @4xl/screen:flex-1 @4xl/screen:overflow-y-auto @4xl/screen:overscroll-contain"
          >
            {current === 'db' && <DbAtStep steps={view.steps} step={cursor} onSelect={jump} />}
            {current === 'diff' && (
              <div className="space-y-3">
                <DbDiff view={view} onStep={jump} onReference={showReference} />
                <ReferenceActions reference={view.reference} selected={reference?.index ?? null} nonce={reference?.nonce ?? 0} />
              </div>
            )}
            {current === 'outputs' && <OutputsPanel view={view} active={activeOutput} onFound={onFound} onElsewhere={onElsewhere} onNear={onNear} />}
            {extra && <PanelSlot panel={extra} view={view} step={cursor} onStep={select} nav={nav} />}
          </div>
        </aside>
      </div>
    </div>
  );
}

/** A mount point's content rendered as its own component, handed the navigation callbacks. */
function BelowSlot(props: { render: (nav: EpisodeNav) => ReactNode; nav: EpisodeNav }) {
  return props.render(props.nav);
}

function PanelSlot(props: { panel: SidePanel; view: EpisodeView; step: number; onStep: (n: number) => void; nav: EpisodeNav }) {
  const { panel, ...ctx } = props;
  return panel.render(ctx);
}
