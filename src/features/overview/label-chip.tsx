import type { NoteLabel } from '../../core/contract';

/** A short form of each note label for table cells; the full label is the chip's name. */
const SHORT: Readonly<Record<NoteLabel, string>> = {
  'agent error': 'agent error',
  'user-simulator error': 'user sim',
  'task or annotation bug': 'task bug',
  'evaluator blind spot': 'blind spot',
  other: 'other',
};

/** The label a reader gave an episode (kept in this browser), as a chip in the episode list and the overview. */
export function LabelChip({ label }: { label: NoteLabel }) {
  return (
    <span
      className="shrink-0 rounded-full bg-amber-100 px-1.5 py-px text-[11px] font-medium whitespace-nowrap text-amber-950 ring-1 ring-amber-400 ring-inset"
      title={`Your label: ${label}`}
      aria-label={`labelled ${label}`}
      data-testid="label-chip"
      data-label={label}
    >
      ✎ {SHORT[label]}
    </span>
  );
}
