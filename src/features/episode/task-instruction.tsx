import { FOCUS_RING_SKY } from '../../ui/focus';
import { ScrollBox } from '../../ui/scroll-box';

/** The task instruction given to the user simulator (the user's goal): open unless the reader closed it. */
export function TaskInstruction(props: { instruction: string; strategy: string; open: boolean; onToggle: () => void }) {
  const { instruction, strategy, open, onToggle } = props;
  if (instruction === '') return null;
  return (
    <div className="shrink-0 border-b border-slate-200 bg-white px-2 py-1 text-xs text-slate-700" data-testid="task-instruction">
      <button
        type="button"
        aria-expanded={open}
        onClick={onToggle}
        className={`w-full cursor-pointer rounded text-left font-medium select-none ${FOCUS_RING_SKY}`}
      >
        {open ? '▾' : '▸'} The user's goal{' '}
        <span className="font-normal text-slate-600">(task instruction given to the user simulator · agent strategy: {strategy})</span>
      </button>
      <ScrollBox
        as="p"
        label="The user's goal"
        className={`mt-1 max-h-24 overflow-y-auto @3xl/screen:max-h-40 whitespace-pre-wrap [overflow-wrap:anywhere] ${open ? '' : 'hidden'}`}
      >
        {instruction}
      </ScrollBox>
    </div>
  );
}
