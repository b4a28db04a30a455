import { memo, useEffect, useRef } from 'react';
import type { StepView } from '../../core/contract';
import { clip } from '../../ui/fold';
import { Button } from '../../ui/button';
import { FOCUS_RING_SKY } from '../../ui/focus';
import { stepLabel } from './ui';

function stepTone(s: StepView): string {
  if (s.exception || s.unknownTool) return 'bg-red-100 text-red-900 ring-red-300';
  if (s.changes.length > 0) return 'bg-amber-100 text-amber-900 ring-amber-300';
  if (s.isRespond) return 'bg-indigo-50 text-indigo-900 ring-indigo-200';
  return 'bg-slate-100 text-slate-800 ring-slate-300';
}

function stepTitle(s: StepView): string {
  const notes = [clip(s.action)];
  if (s.changes.length > 0) notes.push(clip(`writes ${s.changes.map((c) => `${c.table}/${c.key}`).join(', ')}`));
  if (s.exception) notes.push(`raised ${clip(s.exception)}`);
  if (s.unknownTool) notes.push('unknown tool');
  if (s.observationDiffers) notes.push('replayed observation differs');
  if (s.done) notes.push('ends the episode');
  return `${stepLabel(s.index)}: ${notes.join('; ')}`;
}

const StepChip = memo(function StepChip(props: { step: StepView; selected: boolean; onSelect: (n: number) => void }) {
  const { step, selected, onSelect } = props;
  return (
    <button
      type="button"
      onClick={() => onSelect(step.index)}
      aria-label={stepTitle(step)}
      aria-current={selected ? 'step' : undefined}
      title={stepTitle(step)}
      className={`relative h-6 min-w-6 shrink-0 rounded px-1 font-mono text-[11px] ring-1 ${FOCUS_RING_SKY} ${
        selected ? 'bg-sky-700 text-white ring-sky-800' : `${stepTone(step)} hover:brightness-95`
      }`}
    >
      {step.index + 1}
      {step.observationDiffers && <span aria-hidden className="absolute -right-0.5 -top-0.5 h-1.5 w-1.5 rounded-full bg-orange-500" />}
    </button>
  );
});

/** The step cursor: previous/next, the current step, and one chip per executed step. */
export function StepBar(props: { steps: readonly StepView[]; step: number; onSelect: (n: number) => void }) {
  const { steps, step, onSelect } = props;
  const current = steps[step];
  const last = steps.length - 1;
  const chips = useRef<HTMLDivElement>(null);
  // One row of chips that scrolls sideways: keep the current one in it (this row only, never the page).
  useEffect(() => {
    const row = chips.current;
    const chip = row?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!row || !chip) return;
    const left = chip.offsetLeft;
    if (left < row.scrollLeft) row.scrollLeft = left - 4;
    else if (left + chip.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + chip.offsetWidth - row.clientWidth + 4;
  }, [step]);
  if (!current) return <div className="px-2 py-1.5 text-xs text-slate-600">No executed steps.</div>;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 bg-white px-2 py-1 @xl:flex-nowrap" data-testid="step-bar">
      <div className="flex min-w-0 items-center gap-2 text-xs whitespace-nowrap @xl:shrink-0">
        <Button onClick={() => onSelect(step - 1)} disabled={step <= 0} aria-label="Prev: previous step (k)" title="Previous step (k or ↑)">
          ↑ Prev
        </Button>
        <Button onClick={() => onSelect(step + 1)} disabled={step >= last} aria-label="Next step (j)" title="Next step (j or ↓)">
          ↓ Next
        </Button>
        <span
          className="min-w-0 truncate font-medium text-slate-800 @xl:max-w-56"
          aria-live="polite"
          data-testid="step-current"
          data-step={step}
          title={current.action}
        >
          Step {step + 1} of {steps.length}: <code className="font-mono">{clip(current.action)}</code>
        </span>
      </div>
      <div
        ref={chips}
        className="relative flex min-w-0 basis-full gap-1 overflow-x-auto p-0.5 [scrollbar-width:thin] @xl:basis-auto @xl:flex-1"
        role="group"
        aria-label="Steps"
      >
        {steps.map((s) => (
          <StepChip key={s.index} step={s} selected={s.index === step} onSelect={onSelect} />
        ))}
      </div>
    </div>
  );
}
