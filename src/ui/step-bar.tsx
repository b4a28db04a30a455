import { memo, useEffect, useRef, type KeyboardEvent } from 'react';
import { Button } from './button';
import { clip } from './fold';
import { FOCUS_RING_SKY } from './focus';

/** One chip of a step bar: its position, its text, what it did (title), its tone (Tailwind classes). */
export interface StepItem {
  /** The chip's text (a step's number, a message's index). */
  readonly label: string;
  /** What the step did, in one line (beside "Step n of m"). */
  readonly action: string;
  readonly title: string;
  readonly tone: string;
  /** A dot in the corner (e.g. a replayed output that differs). */
  readonly dot?: boolean;
}

const StepChip = memo(function StepChip(props: { item: StepItem; at: number; selected: boolean; onSelect: (n: number) => void }) {
  const { item, at, selected, onSelect } = props;
  return (
    <button
      type="button"
      onClick={() => onSelect(at)}
      tabIndex={selected ? 0 : -1}
      aria-label={item.title}
      aria-current={selected ? 'step' : undefined}
      title={item.title}
      className={`relative h-6 min-w-6 shrink-0 rounded px-1 font-mono text-[11px] ring-1 ${FOCUS_RING_SKY} ${
        selected ? 'bg-sky-700 text-white ring-sky-800' : `${item.tone} hover:brightness-95`
      }`}
    >
      {item.label}
      {item.dot && <span aria-hidden className="absolute -right-0.5 -top-0.5 h-1.5 w-1.5 rounded-full bg-orange-500" />}
    </button>
  );
});

/** The step cursor: previous/next, the current step, and one chip per step (of an episode, or of a τ² simulation's messages). */
export function StepBar(props: { items: readonly StepItem[]; step: number; onSelect: (n: number) => void; empty?: string }) {
  const { items, step, onSelect } = props;
  const current = items[step];
  const last = items.length - 1;
  const chips = useRef<HTMLDivElement>(null);
  // One row of chips that scrolls sideways: keep the current one in it (this row only, never the page).
  useEffect(() => {
    const row = chips.current;
    const chip = row?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!row || !chip) return;
    const left = chip.offsetLeft;
    if (left < row.scrollLeft) row.scrollLeft = left - 4;
    else if (left + chip.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + chip.offsetWidth - row.clientWidth + 4;
    // Roving focus: when a chip had the focus, the current one takes it.
    if (row.contains(document.activeElement) && document.activeElement !== chip) chip.focus({ preventScroll: true });
  }, [step]);
  // One tab stop for the chips (the current one); the arrows, Home and End move within them.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, ArrowUp: step - 1, ArrowDown: step + 1, Home: 0, End: last }[e.key];
    if (to === undefined || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    e.stopPropagation();
    if (to >= 0 && to <= last && to !== step) onSelect(to);
  };
  if (!current) return <div className="px-2 py-1.5 text-xs text-slate-600">{props.empty ?? 'No executed steps.'}</div>;
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
          Step {step + 1} of {items.length}: <code className="font-mono">{clip(current.action)}</code>
        </span>
      </div>
      <div
        ref={chips}
        className="relative flex min-w-0 basis-full gap-1 overflow-x-auto p-0.5 [scrollbar-width:thin] @xl:basis-auto @xl:flex-1"
        role="group"
        aria-label="Steps (one tab stop: arrows, Home and End move)"
        onKeyDown={onKeyDown}
      >
        {items.map((s, i) => (
          <StepChip key={i} item={s} at={i} selected={i === step} onSelect={onSelect} />
        ))}
      </div>
    </div>
  );
}
