import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { canKeepBoth, type ConflictChoice, type NoteConflict } from '../../core/contract';
import { Button } from '../../ui/button';

const ROW_HEIGHT = 30;
const SETTLED: Readonly<Record<ConflictChoice, string>> = { mine: 'kept yours', theirs: 'took the imported one', both: 'kept both' };

/**
 * The conflicts of a notes import, however many (an import may hold 200,000 records): a scrolled
 * list of which only the rows in view are rendered, each with both values and the choice of which
 * to keep (keep mine, take theirs, keep both texts) or, once made, what was chosen.
 */
export function ConflictList(props: {
  conflicts: readonly NoteConflict[];
  resolved: ReadonlyMap<number, ConflictChoice>;
  onResolve: (index: number, choice: ConflictChoice) => void;
}) {
  const { conflicts, resolved, onResolve } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the list re-renders with the virtualizer's state, as the episode table does
  const virtualizer = useVirtualizer({ count: conflicts.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  return (
    <div
      ref={scroller}
      className="mt-1 max-h-48 overflow-auto rounded border border-amber-200 bg-white"
      data-testid="notes-conflicts"
      data-count={conflicts.length}
      role="list"
      aria-label={`${conflicts.length} conflicts`}
      tabIndex={0}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const c = conflicts[item.index]!;
          const choice = resolved.get(item.index) ?? null;
          return (
            <div
              key={item.key}
              role="listitem"
              data-testid="notes-conflict"
              data-resolved={choice ?? undefined}
              className="absolute inset-x-0 flex items-center gap-1.5 px-1.5"
              style={{ top: item.start, height: ROW_HEIGHT }}
            >
              <span className="min-w-0 flex-1 truncate" title={`kept “${c.kept}”, imported “${c.imported}”`}>
                episode {c.index ?? '?'} (task {c.taskId ?? '?'}), {c.field}: kept “{c.kept}”, imported “{c.imported}”
              </span>
              {choice ? (
                <span className="shrink-0 font-medium text-emerald-800">Settled: {SETTLED[choice]}.</span>
              ) : (
                <span className="flex shrink-0 gap-1">
                  <Button onClick={() => onResolve(item.index, 'mine')} data-testid="conflict-mine">
                    Keep mine
                  </Button>
                  <Button onClick={() => onResolve(item.index, 'theirs')} data-testid="conflict-theirs">
                    Take theirs
                  </Button>
                  {canKeepBoth(c) && (
                    <Button onClick={() => onResolve(item.index, 'both')} data-testid="conflict-both">
                      Keep both
                    </Button>
                  )}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
