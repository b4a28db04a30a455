import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { NoteConflict } from '../../core/contract';

const ROW_HEIGHT = 20;

/**
 * The conflicts of a notes import, however many (an import may hold 200,000 records): a scrolled
 * list of which only the rows in view are rendered.
 */
export function ConflictList({ conflicts }: { conflicts: readonly NoteConflict[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the list re-renders with the virtualizer's state, as the episode table does
  const virtualizer = useVirtualizer({ count: conflicts.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  return (
    <div
      ref={scroller}
      className="mt-1 max-h-40 overflow-auto rounded border border-amber-200 bg-white"
      data-testid="notes-conflicts"
      data-count={conflicts.length}
      role="list"
      aria-label={`${conflicts.length} conflicts`}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const c = conflicts[item.index]!;
          return (
            <div
              key={item.key}
              role="listitem"
              data-testid="notes-conflict"
              className="absolute inset-x-0 truncate px-1.5"
              style={{ top: item.start, height: ROW_HEIGHT, lineHeight: `${ROW_HEIGHT}px` }}
              title={`kept “${c.kept}”, imported “${c.imported}”`}
            >
              episode {c.index ?? '?'} (task {c.taskId ?? '?'}), {c.field}: kept “{c.kept}”, imported “{c.imported}”
            </div>
          );
        })}
      </div>
    </div>
  );
}
