import type { EpisodeView, WalkthroughLine } from '../../core/contract';

const FOCUS = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600';
const LINK = `rounded px-1 text-[11px] font-medium text-sky-700 underline decoration-sky-300 underline-offset-2 hover:bg-sky-50 ${FOCUS}`;

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
        <button type="button" className={LINK} onClick={() => nav.step(line.step!)} data-testid="walkthrough-step">
          step {line.step + 1}
        </button>
      )}
      {line.gold !== undefined && (
        <button type="button" className={LINK} onClick={() => nav.reference(line.gold!)} data-testid="walkthrough-gold">
          reference {line.gold + 1}
        </button>
      )}
      {line.record !== undefined && (
        <button type="button" className={LINK} onClick={() => nav.record(line.record!)} data-testid="walkthrough-record">
          {line.record}
        </button>
      )}
    </>
  );
}

/** "How τ-bench judged this episode": the evaluator's steps in order, each line one click from what it is about. */
export function WalkthroughPanel(props: { view: EpisodeView; nav: WalkthroughNav }) {
  const { view, nav } = props;
  return (
    <details className="rounded-md border border-slate-200 bg-white text-xs text-slate-800" data-testid="walkthrough">
      <summary className={`cursor-pointer select-none rounded px-2 py-1.5 font-semibold ${FOCUS}`}>How τ-bench judged this episode</summary>
      <ol className="space-y-0.5 px-2 pb-2">
        {view.walkthrough.map((l, i) => (
          <li key={i} className={`break-words leading-snug ${l.level === 1 ? 'pl-5 text-slate-700' : 'pt-1 font-medium text-slate-900'}`} data-testid="walkthrough-line">
            <span className={l.text.length > 70 && /^[0-9a-f]{64}$/.test(l.text.split(' ').at(-1) ?? '') ? 'break-all font-mono' : ''}>{l.text}</span> <Links line={l} nav={nav} />
          </li>
        ))}
      </ol>
    </details>
  );
}
