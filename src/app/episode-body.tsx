import { useApp, useAppStore } from '../ui/store-context';
import { EpisodeScreen } from '../features/episode/episode-screen';
import { WhatIfBar } from '../features/what-if/what-if-bar';
import { AlignmentPanel } from '../features/alignment/alignment-panel';
import { FindingsPanel } from '../features/findings/findings-panel';
import { WalkthroughPanel } from '../features/walkthrough/walkthrough-panel';

/** The episode screen for the selected episode, once its view has arrived from the worker. */
export function EpisodeBody() {
  const store = useAppStore();
  const view = useApp((s) => s.view);
  const error = useApp((s) => s.viewError);
  const detection = useApp((s) => s.detection);
  const step = useApp((s) => s.step);
  const whatIfView = useApp((s) => s.whatIf?.view ?? null);
  const problem = useApp((s) => (s.selected === null ? null : (s.headers[s.selected]?.problem ?? null)));
  if (!detection)
    return <p className="p-6 text-sm text-slate-500">Waiting for τ-bench data: the episode is shown once the data is loaded (see above).</p>;
  if (error)
    return (
      <div role="alert" className="m-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="episode-error">
        <p className="font-semibold">This episode cannot be evaluated</p>
        <p className="mt-1 break-words">{problem ?? error}</p>
      </div>
    );
  if (!view) return <p className="p-6 text-sm text-slate-500" aria-live="polite">Evaluating the episode…</p>;
  const shown = whatIfView ?? view;
  return (
    <div className="flex min-w-0 flex-1 flex-col">
      <WhatIfBar recorded={view} step={step} />
      <EpisodeScreen
        view={shown}
        step={step}
        onStep={(n) => store.getState().setStep(n)}
        detection={detection}
        extraTab={{ label: `Agent vs reference (${shown.alignment.pairs.filter((p) => p.match !== 'same').length} apart)`, render: (nav) => <AlignmentPanel view={shown} nav={nav} /> }}
        below={(nav) => (
          <>
            <FindingsPanel view={shown} onStep={nav.step} onMessage={nav.message} />
            <WalkthroughPanel view={shown} nav={nav} />
          </>
        )}
      />
    </div>
  );
}
