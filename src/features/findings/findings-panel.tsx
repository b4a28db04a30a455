import { Button } from '../../ui/button';
import type { EpisodeView, Finding } from '../../core/contract';

import { FOCUS_RING_SKY as FOCUS } from '../../ui/focus';

const GROUPS: readonly { readonly group: Finding['group']; readonly title: string; readonly note: string }[] = [
  { group: 'blind-spot', title: 'Blind spots of the evaluator', note: 'where τ-bench’s rule gives a misleading verdict on this episode' },
  { group: 'procedure', title: 'Procedure', note: 'what the domain policy asks and the reward ignores — a heuristic reading of the dialogue' },
];

/**
 * What τ-bench does not count, grouped and collapsible, under the dialogue. Each finding is one
 * click from its step (or the message it is about).
 */
export function FindingsPanel(props: { view: EpisodeView; onStep: (n: number) => void; onMessage: (index: number) => void }) {
  const { view, onStep, onMessage } = props;
  if (view.findings.length === 0)
    return (
      <p className="text-xs text-slate-600" data-testid="findings-none">
        Nothing found that τ-bench does not count: no blind spot of the evaluator, no procedure note.
      </p>
    );
  return (
    <details className="rounded-md border border-violet-200 bg-violet-50/60 text-xs text-violet-950" data-testid="findings" open>
      <summary className={`cursor-pointer select-none rounded px-2 py-1.5 font-semibold ${FOCUS}`}>
        Not counted by τ-bench: {view.findings.length} finding{view.findings.length === 1 ? '' : 's'}
      </summary>
      <div className="space-y-1 px-2 pb-2">
        {GROUPS.map(({ group, title, note }) => {
          const items = view.findings.filter((f) => f.group === group);
          if (items.length === 0) return null;
          return (
            <details key={group} open className="rounded border border-violet-200 bg-white px-2 py-1" data-testid={`findings-${group}`}>
              <summary className={`cursor-pointer select-none rounded font-semibold ${FOCUS}`}>
                {title} ({items.length}) <span className="font-normal text-slate-600">· {note}</span>
              </summary>
              <ul className="mt-1 space-y-1">
                {items.map((f, i) => (
                  <li key={i} data-kind={f.kind} className="leading-snug text-slate-800">
                    <code className="mr-1 rounded bg-violet-100 px-1 font-mono text-[11px] text-violet-900">{f.kind}</code>
                    {f.step !== null && (
                      <Button variant="link" onClick={() => (f.messageIndex !== null ? onMessage(f.messageIndex) : onStep(f.step!))} data-testid="finding-link">
                        {f.messageIndex !== null ? `message ${f.messageIndex + 1}` : `step ${f.step + 1}`}
                      </Button>
                    )}
                    {f.step !== null && ': '}
                    {f.text}
                  </li>
                ))}
              </ul>
            </details>
          );
        })}
      </div>
    </details>
  );
}
