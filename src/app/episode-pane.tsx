import { tauBenchView } from '../core/contract';
import { useApp } from '../ui/store-context';
import { Pane, PaneTitle } from '../ui/pane-title';
import { EpisodeBody } from './episode-body';
import { CompareTrialPicker, TrialComparePanel } from '../features/trials/trial-compare';

/** The selected episode: a title bar (list, previous/next, next failed, close), then the episode itself. */
export function EpisodePane() {
  const selected = useApp((s) => s.selected);
  const header = useApp((s) => (s.selected === null ? null : (s.runs.a.headers[s.selected] ?? null)));
  const reward = useApp((s) => (s.selected === null ? undefined : s.runs.a.summaries[s.selected]?.reward));
  const view = useApp((s) => tauBenchView(s.view));
  const whatIfReward = useApp((s) => (s.whatIf && s.whatIf.index === s.selected ? (tauBenchView(s.whatIf.view)?.verdict.reward ?? null) : undefined));
  const comparing = useApp((s) => s.trialCompare !== null && s.trialCompare.index === s.selected && s.trialCompare.run === s.runs.a.id);
  if (selected === null || !header) return null;
  return (
    <Pane testId="episode-pane" className="overflow-y-auto">
      <PaneTitle noun="episode" index={selected} header={header} recomputed={reward} whatIf={whatIfReward} tools={<CompareTrialPicker />} side />
      <div className="@container flex min-h-0 flex-1 flex-col">{comparing && view ? <TrialComparePanel view={view} /> : <EpisodeBody />}</div>
    </Pane>
  );
}
