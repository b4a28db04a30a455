import { useMemo } from 'react';
import { stepAt, tau2View, tau2WhatIfOf, viewSteps, type Tau2SimView } from '../../core/contract';
import { Pane, PaneTitle } from '../../ui/pane-title';
import { DialogueColumn, ScreenColumns, ScreenFrame, SideColumnFrame } from '../../ui/screen-frame';
import { FoldedText } from '../../ui/folded-text';
import { clip, safeLabel } from '../../ui/fold';
import { SideTabs, TabPanel, type TabItem } from '../../ui/panel-tabs';
import { StepBar, type StepItem } from '../../ui/step-bar';
import { Button } from '../../ui/button';
import { useApp, useAppStore } from '../../ui/store-context';
import { Tau2Verdict } from './checks';
import { showCall, Tau2Dialogue, type Tau2RowTools } from './dialogue';
import { useVoiceCursor } from './voice';
import { Tau2WhatIfBanner, useTau2Shown } from './what-if';
import type { Tau2Panel } from './panel-types';

/**
 * The selected τ² simulation: a title bar (list, previous/next, next failed, close), then the
 * messages with a step cursor taking most of the height and, beside them, a side column of panels
 * (`panels`, one tab and one digit key each); on a phone one of them at a time under a tab bar.
 */
export function Tau2SimPane({ panels }: { panels: readonly Tau2Panel[] }) {
  const selected = useApp((s) => s.selected);
  const ready = useApp((s) => s.runs.a.ready !== null);
  const header = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected] ?? null)));
  const summary = useApp((s) => (s.selected === null ? undefined : s.runs.a.summaries[s.selected]));
  const recorded = useApp((s) => tau2View(s.view));
  const error = useApp((s) => s.viewError);
  // The what-if's reward beside the recorded one in the title (absent: no what-if on this simulation; null: being judged).
  const whatIfReward = useApp((s) => {
    const w = s.whatIf;
    if (w === null || w.run !== s.runs.a.id || w.index !== s.selected || w.edits.length === 0 || w.error !== null) return undefined;
    return tau2WhatIfOf(w.view)?.rewardAfter ?? null;
  });
  const shown = useTau2Shown(recorded);

  if (selected === null || !header) return null;
  const view = shown.view;
  return (
    <Pane testId="tau2-sim-pane">
      <PaneTitle noun="simulation" index={selected} header={header} recomputed={summary?.reward} whatIf={whatIfReward} />
      {recorded && <Tau2WhatIfBanner recorded={recorded} />}
      {view === null ? (
        <p className="p-4 text-sm text-slate-600" data-testid="tau2-sim-waiting">
          {error ? `Not shown: ${safeLabel(error, 500)}` : ready ? 'Judging the simulation…' : 'Waiting for τ² data…'}
        </p>
      ) : (
        <>
          {view.recordedOnly && <RecordedOnly />}
          {/* No what-if controls on a full-duplex simulation: core judges no edit of one (its messages come from its ticks). */}
          <Tau2Screen
            key={view.index}
            view={view}
            edited={view !== recorded}
            panels={panels}
            tools={view.recordedOnly || view.voice !== undefined ? undefined : shown.tools}
          />
        </>
      )}
    </Pane>
  );
}

/**
 * A simulation shown as its file records it (τ²'s data not here yet: a shared link opened elsewhere): said, with the
 * data one click away — fetched from where τ² publishes it, or a local tau2-bench folder picked. The recomputed
 * simulation replaces it when the data is in.
 */
function RecordedOnly() {
  const store = useAppStore();
  const request = useApp((s) => s.runs.a.dataRequest);
  const pickFolder = (): void => document.querySelector<HTMLInputElement>('[data-testid="open-folder-input"]')?.click();
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-sky-200 bg-sky-50 px-3 py-1.5 text-xs text-sky-950"
      role="note"
      data-testid="tau2-recorded-only"
    >
      <p className="min-w-[min(100%,20rem)] flex-1">
        <strong>As recorded:</strong> τ²’s data is not in this browser yet, so the verdict and the tool answers are the ones the file records; nothing is
        replayed. With the data, the verdict is recomputed here.
      </p>
      {request && (
        <Button variant="primary" onClick={() => store.getState().agreeToFetch(request.suggestedBase)} data-testid="tau2-recorded-fetch">
          Fetch τ²’s {safeLabel(request.domain, 40)} data and recompute
        </Button>
      )}
      <Button onClick={pickFolder}>Pick a tau2-bench folder…</Button>
    </div>
  );
}

/** The side panel a simulation opens on: one that asks for it (`opensOn`), else the DB diff when the DB check failed, else how τ² judged it. */
function initialTab(view: Tau2SimView, tabs: readonly TabItem[], panels: readonly Tau2Panel[]): string {
  const want = panels.find((p) => p.opensOn?.(view))?.id ?? (view.db?.match === false ? 'diff' : 'judged');
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

function Tau2Screen(props: { view: Tau2SimView; edited: boolean; panels: readonly Tau2Panel[]; tools: Tau2RowTools | undefined }) {
  const { view, edited, panels, tools } = props;
  const store = useAppStore();
  const panel = useApp((s) => s.panel);
  const sideHidden = useApp((s) => s.layout.sideHidden);
  const step = useApp((s) => s.step);
  const message = stepAt(view, step);
  const steps = useMemo(() => viewSteps(view), [view]);
  const items = useMemo(() => stepItems(view), [view]);
  const voiceCursor = useVoiceCursor(view, message);
  const text = (x: string | ((v: Tau2SimView) => string)): string => (typeof x === 'string' ? x : x(view));
  // A panel not shown for this simulation leaves its digit key unused: the others keep theirs.
  const tabs: TabItem[] = panels.flatMap((p, i) =>
    p.shown && !p.shown(view) ? [] : [{ id: p.id, label: text(p.label), short: text(p.short ?? p.label), ...(i < 9 ? { key: String(i + 1) } : {}) }],
  );
  const current = panel.id !== null && tabs.some((t) => t.id === panel.id) ? panel.id : initialTab(view, tabs, panels);
  const shown = panels.find((p) => p.id === current);
  const st = store.getState;
  const onMessage = (index: number): void => {
    st().setStep(index);
    st().showPhone('dialogue');
  };
  const onCall = (index: number): void => {
    const m = view.messages.find((x) => x.calls.some((c) => c.index === index));
    if (m) st().setStep(m.index);
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
            onSelect={(n) => steps[n] !== undefined && st().setStep(steps[n])}
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
            <Tau2Dialogue view={view} message={message} onSelect={onMessage} tools={tools} tick={voiceCursor?.tick ?? null} />
          </div>
        </DialogueColumn>
        <SideColumnFrame label="Simulation details" phone={phone} sideHidden={sideHidden}>
          <SideTabs noun="Simulation" tabs={tabs} current={current} onPick={pick} />
          <TabPanel current={current}>{shown?.render({ view, edited, message, onMessage, onCall, voiceCursor })}</TabPanel>
        </SideColumnFrame>
      </ScreenColumns>
    </ScreenFrame>
  );
}
