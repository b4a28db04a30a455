import { useEffect, useMemo } from 'react';
import type { Tau2SimView } from '../../core/contract';
import { TAU2_TASK_KEY } from '../../core/contract';
import { Pane, PaneTitle } from '../../ui/pane-title';
import { DialogueColumn, ScreenColumns, ScreenFrame, SideColumnFrame } from '../../ui/screen-frame';
import { FoldedText } from '../../ui/folded-text';
import { clip, safeLabel } from '../../ui/fold';
import { SideTabs, TabPanel, type TabItem } from '../../ui/panel-tabs';
import { StepBar, type StepItem } from '../../ui/step-bar';
import { useApp, useAppStore } from '../../ui/store-context';
import { tau2StepAt, tau2Steps } from '../../store/tau2-slice';
import { Tau2Verdict } from './tau2-checks';
import { showCall, Tau2Dialogue, type Tau2RowTools } from './tau2-dialogue';
import { Tau2WhatIfBanner, useTau2Shown } from './tau2-what-if';
import type { Tau2Panel } from './tau2-panel-types';

/**
 * The selected τ² simulation: a title bar (list, previous/next, next failed, close), then the
 * messages with a step cursor taking most of the height and, beside them, a side column of panels
 * (`panels`, one tab and one digit key each); on a phone one of them at a time under a tab bar.
 */
export function Tau2SimPane({ panels }: { panels: readonly Tau2Panel[] }) {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const run = useApp((s) => s.runs.a.id);
  const ready = useApp((s) => s.runs.a.tau2Ready !== null);
  const header = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected] ?? null)));
  const summary = useApp((s) => (s.selected === null ? undefined : s.runs.a.summaries[s.selected]));
  const sim = useApp((s) => s.tau2Sim);
  // The what-if's reward beside the recorded one in the title (absent: no what-if on this simulation; null: being judged).
  const whatIfReward = useApp((s) => {
    const w = s.tau2WhatIf;
    if (w === null || w.run !== s.runs.a.id || w.episode !== s.selected || w.edits.length === 0 || w.error !== null) return undefined;
    return w.view?.rewardAfter ?? null;
  });
  const current = sim !== null && sim.run === run && sim.episode === selected ? sim : null;
  const shown = useTau2Shown(run, selected, current?.view ?? null);

  // Asks for the simulation when it is opened, and again once the run's data is there.
  useEffect(() => {
    if (selected === null || run === null) return;
    const s = store.getState().tau2Sim;
    if (s && s.run === run && s.episode === selected && (s.view !== null || s.error === null || !ready)) return;
    store.getState().askTau2Sim(selected);
  }, [selected, run, ready, store]);

  if (selected === null || !header) return null;
  const view = shown.view;
  return (
    <Pane testId="tau2-sim-pane">
      <PaneTitle
        noun="simulation"
        index={selected}
        header={header}
        task={safeLabel(header.extra[TAU2_TASK_KEY] ?? String(header.taskId), 80)}
        recomputed={summary?.reward}
        whatIf={whatIfReward}
      />
      {current?.view && <Tau2WhatIfBanner recorded={current.view} />}
      {view === null ? (
        <p className="p-4 text-sm text-slate-600" data-testid="tau2-sim-waiting">
          {current?.error ? `Not shown: ${safeLabel(current.error, 500)}` : ready ? 'Judging the simulation…' : 'Waiting for τ² data…'}
        </p>
      ) : (
        <Tau2Screen key={view.index} view={view} edited={view !== current?.view} panels={panels} tools={shown.tools} />
      )}
    </Pane>
  );
}

/** The side panel a simulation opens on: the DB diff when the DB check failed, else how τ² judged it. */
function initialTab(view: Tau2SimView, tabs: readonly TabItem[]): string {
  const want = view.db?.match === false ? 'diff' : 'judged';
  return tabs.some((t) => t.id === want) ? want : (tabs[0]?.id ?? '');
}

/** The step bar's chips: every message but a tool's (it is shown with its call). */
function stepItems(view: Tau2SimView): StepItem[] {
  const wrote = new Set(view.writes.map((w) => w.call));
  return view.messages
    .filter((m) => m.role !== 'tool')
    .map((m) => {
      const names = m.calls.map((c) => c.name);
      const writes = m.calls.some((c) => wrote.has(c.index));
      const errs = m.calls.some((c) => c.error);
      const action = `${m.role} #${m.index}${names.length > 0 ? `: ${names.join(', ')}` : m.content ? `: ${clip(m.content, 60)}` : ''}`;
      const notes = [action, ...(writes ? ['changes the DB'] : []), ...(errs ? ['a call returned an error'] : [])];
      return {
        label: String(m.index),
        action,
        title: notes.join('; '),
        tone: errs
          ? 'bg-red-100 text-red-900 ring-red-300'
          : writes
            ? 'bg-amber-100 text-amber-900 ring-amber-300'
            : m.role === 'user'
              ? 'bg-sky-50 text-sky-900 ring-sky-200'
              : m.role === 'assistant'
                ? 'bg-indigo-50 text-indigo-900 ring-indigo-200'
                : 'bg-slate-100 text-slate-800 ring-slate-300',
        dot: m.calls.some((c) => c.matchesRecorded === false),
      };
    });
}

function Tau2Screen(props: { view: Tau2SimView; edited: boolean; panels: readonly Tau2Panel[]; tools: Tau2RowTools }) {
  const { view, edited, panels, tools } = props;
  const store = useAppStore();
  const panel = useApp((s) => s.panel);
  const sideHidden = useApp((s) => s.layout.sideHidden);
  const step = useApp((s) => s.tau2Step);
  const message = tau2StepAt(view, step);
  const steps = useMemo(() => tau2Steps(view), [view]);
  const items = useMemo(() => stepItems(view), [view]);
  const text = (x: string | ((v: Tau2SimView) => string)): string => (typeof x === 'string' ? x : x(view));
  const tabs: TabItem[] = panels.map((p, i) => ({ id: p.id, label: text(p.label), short: text(p.short ?? p.label), ...(i < 9 ? { key: String(i + 1) } : {}) }));
  const current = panel.id !== null && tabs.some((t) => t.id === panel.id) ? panel.id : initialTab(view, tabs);
  const shown = panels.find((p) => p.id === current);
  const st = store.getState;
  const onMessage = (index: number): void => {
    st().setTau2Step(index);
    st().showPhone('dialogue');
  };
  const onCall = (index: number): void => {
    const m = view.messages.find((x) => x.calls.some((c) => c.index === index));
    if (m) st().setTau2Step(m.index);
    st().showPhone('dialogue');
    requestAnimationFrame(() => showCall(index));
  };
  const phone = panel.phone;
  const pick = (id: string): void => st().showPanel(id);
  return (
    <ScreenFrame
      testId="tau2-sim"
      data={{ 'data-index': view.index, 'data-message': message }}
      noun="Simulation"
      tabs={tabs}
      current={current}
      phone={phone}
      onPick={pick}
      onPhone={(v) => st().showPhone(v)}
    >
      {phone === 'verdict' && (
        <div className="min-h-0 shrink overflow-y-auto rounded-md border border-slate-200 bg-white @3xl/screen:hidden">
          <Tau2Verdict view={view} />
        </div>
      )}
      <ScreenColumns phone={phone} sideHidden={sideHidden}>
        <DialogueColumn label="Messages and step cursor" phone={phone}>
          <StepBar
            items={items}
            step={Math.max(0, steps.indexOf(message))}
            onSelect={(n) => steps[n] !== undefined && st().setTau2Step(steps[n])}
            empty="No messages."
          />
          <div className="min-h-0 flex-1 overflow-y-auto" data-scroll>
            {view.instructions !== null && (
              <details className="border-b border-slate-200 px-3 py-1.5 text-xs">
                <summary className="cursor-pointer font-semibold text-slate-600">The user’s instructions (task {safeLabel(view.taskId, 80)})</summary>
                <div className="mt-1 whitespace-pre-wrap text-slate-800">
                  <FoldedText text={view.instructions} limit={4000} />
                </div>
              </details>
            )}
            <Tau2Dialogue view={view} message={message} onSelect={onMessage} tools={tools} />
          </div>
        </DialogueColumn>
        <SideColumnFrame label="Simulation details" phone={phone} sideHidden={sideHidden}>
          <SideTabs noun="Simulation" tabs={tabs} current={current} onPick={pick} />
          <TabPanel current={current}>{shown?.render({ view, edited, message, onMessage, onCall })}</TabPanel>
        </SideColumnFrame>
      </ScreenColumns>
    </ScreenFrame>
  );
}
