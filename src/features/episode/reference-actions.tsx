import { memo, useEffect, useRef, useState } from 'react';
import type { ReferenceStepView } from '../../core/contract';
import { scrollIntoBox } from './scroll';
import { clip } from '../../ui/fold';
import { FoldedText } from '../../ui/folded-text';
import { Button } from '../../ui/button';
import { PRE } from './ui';

/** τ-bench's reference actions (task.actions) as replayed on a fresh DB; `selected` is highlighted and scrolled to. */
export function ReferenceActions(props: { reference: readonly ReferenceStepView[]; selected: number | null; nonce: number }) {
  const { reference, selected, nonce } = props;
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (selected === null) return;
    const el = listRef.current?.querySelector(`[data-reference-index="${selected}"]`);
    scrollIntoBox(el);
    if (el instanceof HTMLElement) el.focus({ preventScroll: true });
  }, [selected, nonce]);
  return (
    <section aria-labelledby="reference-title" className="space-y-1.5" data-testid="reference-actions">
      <h3 id="reference-title" className="text-xs font-semibold text-slate-800">
        Reference actions <span className="font-normal text-slate-600">(the task's actions, replayed on a fresh DB to build the reference DB)</span>
      </h3>
      {reference.length === 0 ? (
        <p className="text-xs text-slate-600">The task lists no actions: the reference DB is the initial DB.</p>
      ) : (
        <ol ref={listRef} className="space-y-1.5">
          {reference.map((r, i) => (
            <ReferenceRow key={i} index={i} item={r} selected={i === selected} />
          ))}
        </ol>
      )}
    </section>
  );
}

const ReferenceRow = memo(function ReferenceRow(props: { index: number; item: ReferenceStepView; selected: boolean }) {
  const { index, item, selected } = props;
  const [open, setOpen] = useState(false);
  const long = (item.observation?.length ?? 0) > 240;
  return (
    <li
      tabIndex={-1}
      data-reference-index={index}
      aria-current={selected ? 'true' : undefined}
      className={`rounded-md border px-2 py-1.5 text-xs outline-none ${selected ? 'border-emerald-500 bg-emerald-50 ring-2 ring-emerald-400' : 'border-slate-200 bg-white'}`}
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-mono text-[11px] text-slate-600">{index + 1}.</span>
        <code className="font-mono text-[13px] font-semibold text-slate-900">{clip(item.action)}</code>
        {item.skipped && (
          <span
            className="rounded bg-slate-200 px-1 text-[11px] text-slate-700"
            title="τ-bench does not execute respond or transfer_to_human_agents when building the reference DB"
          >
            not replayed
          </span>
        )}
      </div>
      <pre className={`${PRE} text-slate-800`}>
        <FoldedText text={item.kwargs} />
      </pre>
      {item.observation !== null && (
        <div className="mt-1 border-t border-slate-100 pt-1">
          <div className="flex items-center gap-2 text-[11px] font-semibold text-slate-600">
            Observation
            {long && (
              <Button aria-expanded={open} onClick={() => setOpen(!open)}>
                {open ? 'Less' : 'All'}
              </Button>
            )}
          </div>
          <pre className={`${PRE} text-slate-700 ${long && !open ? 'max-h-[4.4em] overflow-hidden' : ''}`}>
            <FoldedText text={item.observation} />
          </pre>
        </div>
      )}
    </li>
  );
});
