import { ScrollBox } from './scroll-box';

/**
 * A what-if's edits as chips, each with its undo button (τ-bench's and τ²'s banner). At most about four lines: a link
 * may carry 100 edits, and the list shown whole pushed the dialogue under it out of the screen; past that it scrolls
 * in its box (a named tab stop while it overflows).
 */
export function EditList(props: { label: string; texts: readonly string[]; onUndo: (i: number) => void; itemTestId?: string }) {
  const { label, texts, onUndo, itemTestId } = props;
  return (
    <ScrollBox label={`${label} (scrollable)`} className="max-h-[5.5rem] overflow-y-auto" data-testid="what-if-edits">
      <ul className="flex flex-wrap gap-1" aria-label={label}>
        {texts.map((text, i) => (
          <li key={i} className="flex items-center gap-1 rounded border border-violet-300 bg-white px-1.5 py-px" data-testid={itemTestId}>
            {text}
            <button type="button" className="rounded px-1 text-violet-800 hover:bg-violet-100" aria-label={`Undo: ${text}`} onClick={() => onUndo(i)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
    </ScrollBox>
  );
}
