import { useApp, useAppStore } from '../ui/store-context';
import { formatRecorded, formatReward } from '../core/contract';
import { Button } from '../ui/button';
import { ListToggle } from '../ui/list-toggle';
import { EpisodeBody } from './episode-body';
import { CompareTrialPicker, TrialComparePanel } from '../features/trials/trial-compare';

/** The selected episode: a title bar (list, previous/next, next failed, close), then the episode itself. */
export function EpisodePane() {
  const store = useAppStore();
  const selected = useApp((s) => s.selected);
  const header = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected] ?? null)));
  const summary = useApp((s) => (s.selected === null ? undefined : s.runs.a.summaries[s.selected]));
  const sideHidden = useApp((s) => s.layout.sideHidden);
  const view = useApp((s) => s.view);
  const whatIfReward = useApp((s) => (s.whatIf && s.whatIf.index === s.selected ? (s.whatIf.view?.verdict.reward ?? null) : undefined));
  const comparing = useApp((s) => s.trialCompare !== null && s.trialCompare.index === s.selected && s.trialCompare.run === s.runs.a.id);
  if (selected === null || !header) return null;
  const s = store.getState;
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col overflow-y-auto @container/pane" data-testid="episode-pane" id="episode-pane" tabIndex={-1}>
      <div className="flex items-center gap-1.5 border-b border-slate-200 bg-white px-2 py-1">
        <ListToggle noun="episode" />
        <h2 className="min-w-[5.5rem] flex-1 truncate text-sm font-semibold text-slate-900">
          Episode {selected}
          <span className="font-normal text-slate-600">
            {' '}
            · task {header.taskId ?? '—'} · trial {header.trial ?? '—'} · recorded {formatRecorded(header)}
            {summary && summary.reward !== null && ` · recomputed ${formatReward(summary.reward)}`}
            {whatIfReward !== undefined && (
              <strong className="font-semibold text-violet-800" data-testid="title-what-if">
                {' '}
                · what-if {whatIfReward === null ? '…' : formatReward(whatIfReward)}
              </strong>
            )}
          </span>
        </h2>
        <div className="flex shrink-0 items-center gap-1">
          <CompareTrialPicker />
          <Button onClick={() => s().stepEpisode(-1)} aria-label="Previous episode (p)" title="Previous episode (p)">
            ‹
          </Button>
          <Button onClick={() => s().stepEpisode(1)} aria-label="Next episode (n)" title="Next episode (n)">
            ›
          </Button>
          <Button onClick={() => s().stepEpisode(1, true)} className="whitespace-nowrap" aria-label="Next failed episode (f)" title="Next failed episode (f)">
            {/* On phones a short label, so the episode's own title keeps its room. */}
            <span className="sm:hidden" aria-hidden="true">
              ✗›
            </span>
            <span className="hidden sm:inline">next failed</span>
          </Button>
          <Button
            onClick={() => s().toggleLayout('sideHidden')}
            className="hidden whitespace-nowrap @3xl/pane:inline-block"
            aria-pressed={!sideHidden}
            title="Show or hide the side column (s)"
          >
            {sideHidden ? 'Side ⇠' : 'Side ⇥'}
          </Button>
          <Button onClick={() => s().select(null)} className="hidden lg:inline-block" aria-label="Close the episode (Esc)" title="Close the episode (Esc)">
            ✕
          </Button>
        </div>
      </div>
      <div className="@container flex min-h-0 flex-1 flex-col">{comparing && view ? <TrialComparePanel view={view} /> : <EpisodeBody />}</div>
    </div>
  );
}
