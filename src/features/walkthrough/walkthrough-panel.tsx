import { Button } from '../../ui/button';
import type { EpisodeView, WalkthroughLine } from '../../core/contract';

import { FOCUS_RING_SKY as FOCUS } from '../../ui/focus';

export interface WalkthroughNav {
  step(n: number): void;
  reference(index: number): void;
  record(name: string): void;
}

function Links(props: { line: WalkthroughLine; nav: WalkthroughNav }) {
  const { line, nav } = props;
  return (
    <>
      {line.step !== undefined && (
        <Button variant="link" className="text-[11px]" onClick={() => nav.step(line.step!)} data-testid="walkthrough-step">
          step {line.step + 1}
        </Button>
      )}
      {line.gold !== undefined && (
        <Button variant="link" className="text-[11px]" onClick={() => nav.reference(line.gold!)} data-testid="walkthrough-gold">
          reference {line.gold + 1}
        </Button>
      )}
      {line.record !== undefined && (
        <Button variant="link" className="text-[11px]" onClick={() => nav.record(line.record!)} data-testid="walkthrough-record">
          {line.record}
        </Button>
      )}
    </>
  );
}

/** "How τ-bench judged this episode": the evaluator's steps in order, each line one click from what it is about. */
export function WalkthroughPanel(props: { view: EpisodeView; nav: WalkthroughNav; open?: boolean }) {
  const { view, nav, open = false } = props;
  return (
    <details className="rounded-md border border-slate-200 bg-white text-xs text-slate-800" data-testid="walkthrough" open={open}>
      <summary className={`cursor-pointer select-none rounded px-2 py-1.5 font-semibold ${FOCUS}`}>How τ-bench judged this episode</summary>
      <ol className="space-y-0.5 px-2 pb-2">
        {view.walkthrough.map((l, i) => (
          <li
            key={i}
            className={`break-words leading-snug ${l.level === 1 ? 'pl-5 text-slate-700' : 'pt-1 font-medium text-slate-900'}`}
            data-testid="walkthrough-line"
          >
            <span className={l.hash !== undefined ? 'break-all font-mono' : ''}>{l.text}</span> <Links line={l} nav={nav} />
          </li>
        ))}
      </ol>
    </details>
  );
}
