import type { EpisodeView } from '../../core/contract';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';
import { fmtRecorded } from './what-if-edits';

/**
 * Above the dialogue while a what-if replay is shown: that the dialogue is edited, its verdict and the
 * recorded one, a link to the what-if panel and a reset. Nothing when no what-if is active.
 */
export function WhatIfBanner(props: { recorded: EpisodeView; onOpen: () => void }) {
  const { recorded, onOpen } = props;
  const whatIf = useApp((s) => s.whatIf);
  const clear = useApp((s) => s.clearWhatIf);
  if (!whatIf || whatIf.index !== recorded.index) return null;
  const n = whatIf.edits.length;
  return (
    <div
      className="flex flex-wrap items-center gap-x-2 gap-y-0.5 border-b border-violet-200 bg-violet-50 px-2 py-1 text-xs text-violet-950"
      data-testid="what-if-banner"
    >
      <strong>What-if replay</strong>
      <span>
        {n} change{n === 1 ? '' : 's'} · {whatIf.error ? 'cannot replay' : whatIf.view ? `edited ${whatIf.view.verdict.reward.toFixed(1)}` : 'replaying…'} ·
        recomputed unedited {recorded.verdict.reward.toFixed(1)} · recorded {fmtRecorded(recorded.verdict.recordedReward)}
      </span>
      <Button variant="link" onClick={onOpen}>
        show changes
      </Button>
      <Button variant="link" onClick={() => clear()} data-testid="what-if-banner-reset">
        reset
      </Button>
    </div>
  );
}
