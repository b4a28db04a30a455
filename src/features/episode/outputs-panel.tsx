import type { Elsewhere, EpisodeView, NearKind, NearSaid, OutputView } from '../../core/contract';
import { MarkedText } from '../../ui/marked-text';
import { Button } from '../../ui/button';
import { ELSEWHERE_LABEL, stepLabel } from './ui';

export function OutputsPanel(props: {
  view: EpisodeView;
  active: string | null;
  onFound: (o: OutputView) => void;
  onElsewhere: (o: OutputView, place: Elsewhere) => void;
  /** Shows a near thing said in its step (marked in the dialogue). */
  onNear: (o: OutputView, near: NearSaid) => void;
}) {
  const { view, active, onFound, onElsewhere, onNear } = props;
  if (view.outputs === null)
    return (
      <p className="text-xs text-slate-600" data-testid="outputs-panel">
        This task lists no required outputs; only the DB hash decides the reward.
      </p>
    );
  return (
    <div className="space-y-2" data-testid="outputs-panel">
      <p role="note" className="rounded border border-sky-200 bg-sky-50 px-2 py-1.5 text-xs text-sky-950">
        Only <strong>respond</strong> messages count: τ-bench checks <code className="font-mono">output.lower() in content.lower().replace(",", "")</code> for
        the content of each respond action. The same text in a tool result, beside a tool call or in a user turn does not count.
      </p>
      <ul className="space-y-1.5">
        {view.outputs.map((o, i) => (
          <OutputRow key={i} output={o} view={view} active={active === o.output} onFound={onFound} onElsewhere={onElsewhere} onNear={onNear} />
        ))}
      </ul>
    </div>
  );
}

function OutputRow(props: {
  output: OutputView;
  view: EpisodeView;
  active: boolean;
  onFound: (o: OutputView) => void;
  onElsewhere: (o: OutputView, place: Elsewhere) => void;
  onNear: (o: OutputView, near: NearSaid) => void;
}) {
  const { output: o, view, active, onFound, onElsewhere, onNear } = props;
  const step = o.stepIndex === null ? undefined : view.steps[o.stepIndex];
  const text = step?.respondText ?? null;
  return (
    <li
      className={`rounded-md border px-2 py-1.5 text-xs ${o.found ? 'border-emerald-200 bg-white' : 'border-amber-300 bg-amber-50/50'} ${active ? 'ring-2 ring-sky-500' : ''}`}
      data-testid="output-row"
      data-found={o.found}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-1.5 py-px text-[11px] font-semibold ${o.found ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-200 text-amber-950'}`}>
          {o.found ? 'found' : 'not found'}
        </span>
        <code className="rounded bg-slate-100 px-1 font-mono text-[13px] font-semibold text-slate-900 [overflow-wrap:anywhere]">{o.output}</code>
        {o.found && step && (
          <Button variant="link" onClick={() => onFound(o)} aria-label={`Show where "${o.output}" matched, in ${stepLabel(step.index)}`}>
            in {stepLabel(step.index)} (respond)
          </Button>
        )}
      </div>
      {o.found && text !== null && o.span && (
        <p className="mt-1 whitespace-pre-wrap rounded bg-slate-50 px-1.5 py-1 text-[12px] text-slate-800 [overflow-wrap:anywhere]" data-testid="output-match">
          <MarkedText text={text} span={o.span} context={80} label={`matched "${o.output}"`} />
        </p>
      )}
      {!o.found && o.near.length > 0 && <NearList output={o} onNear={onNear} />}
      {o.elsewhere.length > 0 && (
        <div className="mt-1">
          <div className="text-[11px] font-medium text-slate-600">
            {o.found ? 'Also appears where it does not count:' : 'Appears only where it does not count:'}
          </div>
          <ul className="mt-0.5 space-y-0.5">
            {o.elsewhere.map((e, i) => {
              const content = view.messages[e.messageIndex]?.content ?? '';
              return (
                <li key={i} className="grid grid-cols-[auto_1fr] gap-x-2" data-testid="output-elsewhere" data-kind={e.kind}>
                  <Button variant="link" className="whitespace-nowrap" onClick={() => onElsewhere(o, e)}>
                    message #{e.messageIndex}
                  </Button>
                  <span className="min-w-0">
                    <span className="text-slate-600">{ELSEWHERE_LABEL[e.kind]}: </span>
                    <span className="font-mono text-[11px] text-slate-700 [overflow-wrap:anywhere]">
                      <MarkedText text={content} span={e.span} context={40} label={`"${o.output}" (does not count)`} />
                    </span>
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </li>
  );
}

const NEAR_LABEL: Readonly<Record<NearKind, string>> = {
  'part-of-sum': 'part of a sum it never gave',
  'within-percent': 'close',
  'same-digits': 'same digits',
  'small-edit': 'nearly the same',
};

/** The closest things the agent did say to the user, each with a link to its step. */
function NearList(props: { output: OutputView; onNear: (o: OutputView, near: NearSaid) => void }) {
  const { output: o, onNear } = props;
  const sum = o.near.find((n) => n.kind === 'part-of-sum');
  return (
    <div className="mt-1" data-testid="output-near">
      <div className="text-[11px] font-medium text-slate-600">Closest things the agent did say:</div>
      {sum && (
        <p className="mt-0.5 text-[11px] text-slate-700" data-testid="near-sum">
          The agent said the parts but never the sum: <code className="font-mono">{sum.detail}</code>
        </p>
      )}
      <ul className="mt-0.5 space-y-0.5">
        {o.near.map((n, i) => (
          <li key={i} className="grid grid-cols-[auto_1fr] gap-x-2" data-testid="near-said" data-kind={n.kind}>
            <Button
              variant="link"
              className="whitespace-nowrap"
              onClick={() => onNear(o, n)}
              aria-label={`Show "${n.text}", said in ${stepLabel(n.stepIndex)}`}
            >
              {stepLabel(n.stepIndex)}
            </Button>
            <span className="min-w-0">
              <code className="rounded bg-slate-100 px-1 font-mono text-[12px] text-slate-900 [overflow-wrap:anywhere]">{n.text}</code>{' '}
              <span className="text-slate-600">
                {NEAR_LABEL[n.kind]}
                {n.kind === 'part-of-sum' ? '' : `: ${n.detail}`}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
