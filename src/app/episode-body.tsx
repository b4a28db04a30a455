import type { ReactNode } from 'react';
import { tauBenchView } from '../core/contract';
import { useApp, useAppStore } from '../ui/store-context';
import { EpisodeScreen, type SidePanel } from '../features/episode/episode-screen';
import { TranscriptScreen } from '../features/episode/transcript-screen';
import { AlignmentPanel } from '../features/alignment/alignment-panel';
import { FindingsPanel } from '../features/findings/findings-panel';
import { EpisodeNotes } from '../features/notes/episode-notes';
import { WalkthroughPanel } from '../features/walkthrough/walkthrough-panel';
import { WhatIfBanner } from '../features/what-if/what-if-banner';
import { WhatIfPanel } from '../features/what-if/what-if-bar';
import { PANEL_KEYS } from './keys';

/** The what-if editor, on the recorded episode (the screen shows the edited one). */
function WhatIfTab({ step }: { step: number }) {
  const recorded = useApp((s) => tauBenchView(s.view));
  return recorded ? <WhatIfPanel recorded={recorded} step={step} /> : null;
}

/**
 * Panels of the episode screen's side column after DB / diff / outputs: this is where feature
 * folders (alignment, what-if, notes, findings, walkthrough) are mounted, as `{ id, label, render }`,
 * in the order of their digit keys (`PANEL_KEYS`).
 */
export const SIDE_PANELS: readonly SidePanel[] = [
  {
    id: 'alignment',
    label: (view) => `Agent vs reference (${view.alignment.pairs.filter((p) => p.match !== 'same').length} apart)`,
    short: 'vs ref',
    render: ({ view, nav }) => <AlignmentPanel view={view} nav={nav} />,
  },
  { id: 'whatif', label: 'What if…', short: 'What if', render: ({ step }) => <WhatIfTab step={step} /> },
  { id: 'notes', label: 'Notes', render: () => <EpisodeNotes /> },
  {
    id: 'findings',
    label: (view) => `Not counted (${view.findings.length})`,
    short: (view) => `Not counted ${view.findings.length}`,
    render: ({ view, nav }) => <FindingsPanel view={view} onStep={nav.step} onMessage={nav.message} />,
  },
  { id: 'walkthrough', label: 'How τ-bench judged', short: 'How judged', render: ({ view, nav }) => <WalkthroughPanel view={view} nav={nav} open /> },
];

function Status({ tone, children, testId }: { tone: 'wait' | 'error'; children: ReactNode; testId?: string }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      aria-live="polite"
      data-testid={testId}
      className={`rounded-md border px-3 py-1.5 text-xs ${tone === 'error' ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-slate-200 bg-white text-slate-600'}`}
    >
      {children}
    </div>
  );
}

/** The selected episode: its dialogue as soon as the file is read; replay and verdict once the data is there. */
export function EpisodeBody() {
  const store = useAppStore();
  const view = useApp((s) => tauBenchView(s.view));
  const transcript = useApp((s) => s.transcript);
  const error = useApp((s) => s.viewError);
  const detection = useApp((s) => s.runs.a.detection);
  const step = useApp((s) => s.step);
  const layout = useApp((s) => s.layout);
  const panel = useApp((s) => s.panel);
  const query = useApp((s) => s.query);
  const hitIndex = useApp((s) => s.hitIndex);
  const hitNonce = useApp((s) => s.hitNonce);
  const whatIfView = useApp((s) => tauBenchView(s.whatIf?.view));
  const problem = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected]?.problem ?? null)));
  const toggle = (flag: 'verdictOpen' | 'sideHidden' | 'instructionOpen'): void => store.getState().toggleLayout(flag);

  if (view && detection && !error)
    return (
      <EpisodeScreen
        view={whatIfView ?? view}
        unedited={whatIfView ? view : undefined}
        step={step}
        onStep={(n) => store.getState().setStep(n)}
        detection={detection}
        panels={SIDE_PANELS}
        panelKeys={PANEL_KEYS}
        layout={layout}
        onToggle={toggle}
        panel={{ ...panel, onPanel: (id) => store.getState().showPanel(id), onPhone: (v) => store.getState().showPhone(v) }}
        search={{ query, index: hitIndex, nonce: hitNonce, onMove: (d) => store.getState().stepHit(d) }}
        toolbar={<WhatIfBanner recorded={view} onOpen={() => store.getState().showPanel('whatif')} />}
      />
    );
  const status = error ? (
    <Status tone="error" testId="episode-error">
      <p className="font-semibold">This episode cannot be evaluated</p>
      <p className="mt-0.5 break-words">{problem ?? error}</p>
    </Status>
  ) : !detection ? (
    <Status tone="wait">
      The dialogue as recorded. <strong>Replay and verdict</strong> appear once τ-bench's data is loaded (see the top of the page).
    </Status>
  ) : (
    <Status tone="wait">Evaluating the episode: replay and verdict follow in a moment…</Status>
  );
  if (!transcript) return <div className="p-2">{status}</div>;
  return (
    <TranscriptScreen transcript={transcript} status={status} instructionOpen={layout.instructionOpen} onToggleInstruction={() => toggle('instructionOpen')} />
  );
}
