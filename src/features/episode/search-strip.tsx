import type { MessageView } from '../../core/contract';
import { Button } from '../../ui/button';

/** The overview's search inside the open episode: which hit is shown of how many, and buttons to step through them. */
export function SearchStrip(props: {
  query: string;
  count: number;
  at: number;
  messages: readonly MessageView[];
  onMove?: ((delta: 1 | -1) => void) | undefined;
}) {
  const { query, count, at, messages, onMove } = props;
  return (
    <div className="flex items-center gap-2 border-b border-slate-200 bg-yellow-50 px-2 py-1 text-xs text-slate-700" data-testid="search-hits">
      {count === 0 ? (
        <span>
          “{query}” is not in this episode's visible text
          {messages.some((m) => m.toolCalls.length > 0) ? ' (it may be in tool-call arguments)' : ''}.
        </span>
      ) : (
        <>
          <span className="min-w-0 truncate">
            “{query}”:{' '}
            <span data-testid="search-counter" className="font-semibold tabular-nums">
              {at + 1} of {count}
            </span>
          </span>
          <Button
            onClick={() => onMove?.(-1)}
            aria-label="Previous search hit (, or Shift+Enter in the search box)"
            title="Previous hit (, or Shift+Enter in the search box)"
          >
            ‹
          </Button>
          <Button onClick={() => onMove?.(1)} aria-label="Next search hit (. or Enter in the search box)" title="Next hit (. or Enter in the search box)">
            ›
          </Button>
        </>
      )}
    </div>
  );
}
