import { useEffect, type ReactNode } from 'react';
import { TAU2_TASK_KEY } from '../../core/contract';
import { Button } from '../../ui/button';
import { ListToggle } from '../../ui/list-toggle';
import { FoldedText } from '../../ui/folded-text';
import { safeLabel } from '../../ui/fold';
import { formatRecorded, formatReward } from '../../core/contract';
import { useApp, useAppStore } from '../../ui/store-context';
import { Tau2Checks, Tau2Verdict } from './tau2-checks';
import { Tau2Dialogue } from './tau2-dialogue';
import { Tau2Notes } from './tau2-notes';
import { Tau2WhatIfBanner, useTau2Shown } from './tau2-what-if';

/**
 * The selected τ² simulation: a title bar (list, previous/next, next failed, close), the messages
 * on the left and, beside them, how τ² judged it check by check (stacked on a narrow screen).
 * `children`: review tools of other features (another trial beside it), mounted by the app under the notes.
 */
export function Tau2SimPane({ children }: { children?: ReactNode } = {}) {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const run = useApp((s) => s.runs.a.id);
  const ready = useApp((s) => s.runs.a.tau2Ready !== null);
  const header = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected] ?? null)));
  const summary = useApp((s) => (s.selected === null ? undefined : s.runs.a.summaries[s.selected]));
  const sim = useApp((s) => s.tau2Sim);
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
  const s = store.getState;
  const view = shown.view;
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col overflow-y-auto @container/pane" data-testid="tau2-sim-pane" id="episode-pane" tabIndex={-1}>
      <div className="flex items-center gap-1.5 border-b border-slate-200 bg-white px-2 py-1">
        <ListToggle noun="simulation" />
        <h2 className="min-w-[5.5rem] flex-1 truncate text-sm font-semibold text-slate-900">
          Simulation {selected}
          <span className="font-normal text-slate-600">
            {' '}
            · task {safeLabel(header.extra[TAU2_TASK_KEY] ?? String(header.taskId), 80)} · trial {header.trial ?? '—'} · recorded {formatRecorded(header)}
            {summary && summary.reward !== null && ` · recomputed ${formatReward(summary.reward)}`}
          </span>
        </h2>
        <div className="flex shrink-0 items-center gap-1">
          <Button onClick={() => s().stepEpisode(-1)} aria-label="Previous simulation (p)" title="Previous simulation (p)">
            ‹
          </Button>
          <Button onClick={() => s().stepEpisode(1)} aria-label="Next simulation (n)" title="Next simulation (n)">
            ›
          </Button>
          <Button
            onClick={() => s().stepEpisode(1, true)}
            className="whitespace-nowrap"
            aria-label="Next failed simulation (f)"
            title="Next failed simulation (f)"
          >
            <span className="sm:hidden" aria-hidden="true">
              ✗›
            </span>
            <span className="hidden sm:inline">next failed</span>
          </Button>
          <Button
            onClick={() => s().select(null)}
            className="hidden lg:inline-block"
            aria-label="Close the simulation (Esc)"
            title="Close the simulation (Esc)"
          >
            ✕
          </Button>
        </div>
      </div>
      <Tau2Notes view={current?.view ?? null} />
      {children}
      {current?.view && <Tau2WhatIfBanner recorded={current.view} />}
      {view === null ? (
        <p className="p-4 text-sm text-slate-600" data-testid="tau2-sim-waiting">
          {current?.error ? `Not shown: ${safeLabel(current.error, 500)}` : ready ? 'Judging the simulation…' : 'Waiting for τ² data…'}
        </p>
      ) : (
        // One verdict: first on a narrow screen (the checks follow the dialogue), atop the checks beside the dialogue on a wide one.
        <div
          className="grid min-h-0 flex-1 content-start @4xl/pane:grid-cols-[minmax(0,1fr)_minmax(22rem,38%)] @4xl/pane:grid-rows-[auto_1fr]"
          data-testid="tau2-sim"
          data-index={view.index}
        >
          <div className="min-w-0 bg-white @4xl/pane:col-start-2 @4xl/pane:row-start-1 @4xl/pane:border-l @4xl/pane:border-slate-200">
            <Tau2Verdict view={view} />
          </div>
          <div className="min-w-0 @4xl/pane:col-start-1 @4xl/pane:row-span-2 @4xl/pane:row-start-1">
            {view.instructions !== null && (
              <details className="border-b border-slate-200 px-3 py-1.5 text-xs">
                <summary className="cursor-pointer font-semibold text-slate-600">The user’s instructions (task {safeLabel(view.taskId, 80)})</summary>
                <div className="mt-1 whitespace-pre-wrap text-slate-800">
                  <FoldedText text={view.instructions} limit={4000} />
                </div>
              </details>
            )}
            <Tau2Dialogue view={view} tools={shown.tools} />
          </div>
          <aside
            className="min-w-0 border-t border-slate-200 bg-white @4xl/pane:col-start-2 @4xl/pane:row-start-2 @4xl/pane:border-t-0 @4xl/pane:border-l"
            aria-label="How τ² judged it"
          >
            <Tau2Checks view={view} />
          </aside>
        </div>
      )}
    </div>
  );
}
