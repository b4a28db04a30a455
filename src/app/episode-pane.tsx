import { useApp, useAppStore } from '../ui/store-context';
import { formatReward } from '../ui/format';
import { EpisodeNotes } from '../features/notes/episode-notes';
import { EpisodeBody } from './episode-body';

/** The selected episode: a title bar (back to the list on narrow screens, previous/next), then the episode screen. */
export function EpisodePane() {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const header = useApp((s) => (s.selected === null ? null : (s.headers[s.selected] ?? null)));
  const summary = useApp((s) => (s.selected === null ? undefined : s.summaries[s.selected]));
  const count = useApp((s) => s.headers.length);
  if (selected === null || !header)
    return (
      <div className="flex flex-1 items-center justify-center p-8 text-center text-sm text-slate-500">
        <div>
          <p className="font-medium text-slate-700">Pick an episode</p>
          <p className="mt-1">Click a row or a cell of the grid; arrow keys move through the list, Enter opens.</p>
        </div>
      </div>
    );
  const nav = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-indigo-600';
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col" data-testid="episode-pane">
      <div className="flex items-center gap-2 border-b border-slate-200 bg-white px-3 py-1.5">
        <button type="button" onClick={() => store.getState().setShowList(true)} className={`${nav} whitespace-nowrap lg:hidden`} aria-label="Back to the episode list">
          ‹ List
        </button>
        <h2 className="min-w-0 truncate text-sm font-semibold text-slate-900">
          Episode {selected}
          <span className="font-normal text-slate-500">
            {' '}
            · task {header.taskId ?? '—'} · trial {header.trial ?? '—'} · recorded {formatReward(header.recordedReward)}
            {summary && summary.reward !== null && ` · recomputed ${formatReward(summary.reward)}`}
          </span>
        </h2>
        <div className="ml-auto flex shrink-0 gap-1">
          <button type="button" className={nav} disabled={selected <= 0} onClick={() => store.getState().select(selected - 1)} aria-label="Previous episode">
            ‹
          </button>
          <button type="button" className={nav} disabled={selected >= count - 1} onClick={() => store.getState().select(selected + 1)} aria-label="Next episode">
            ›
          </button>
        </div>
      </div>
      <EpisodeNotes />
      <div className="min-h-0 flex-1 overflow-auto">
        <EpisodeBody />
      </div>
    </div>
  );
}
