import { formatRecorded, formatReward, tauBenchView, type EpisodeView } from '../../core/contract';
import { Button } from '../../ui/button';
import { EditList } from '../../ui/edit-list';
import { useApp } from '../../ui/store-context';
import { describeEdit } from './what-if-edits';

/**
 * Above the dialogue while a what-if replay is shown: its changes (each undoable, in steps), the
 * edited verdict beside the recomputed and the recorded one, a reset, and the way to the what-if
 * panel. Nothing when no what-if is active.
 */
export function WhatIfBanner(props: { recorded: EpisodeView; onOpen: () => void }) {
  const { recorded, onOpen } = props;
  const whatIf = useApp((s) => s.whatIf);
  const edited = tauBenchView(whatIf?.view);
  const run = useApp((s) => s.runWhatIf);
  const clear = useApp((s) => s.clearWhatIf);
  if (!whatIf || whatIf.index !== recorded.index) return null;
  const edits = whatIf.edits;
  return (
    <div role="status" className="space-y-1 border-b border-violet-200 bg-violet-50 px-2 py-1.5 text-xs text-violet-950" data-testid="what-if-banner">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <strong>What-if replay</strong>
        <span>
          {edits.length} change{edits.length === 1 ? '' : 's'} ·{' '}
          {whatIf.error ? (
            <span className="text-red-800" data-testid="what-if-error">
              {whatIf.error}
            </span>
          ) : edited ? (
            <>
              edited reward <strong data-testid="what-if-reward">{formatReward(edited.verdict.reward)}</strong> · unedited: recomputed{' '}
              {formatReward(edited.whatIf?.recordedEpisodeReward ?? recorded.verdict.reward)}, recorded {formatRecorded(recorded.verdict)}
            </>
          ) : (
            'replaying…'
          )}
        </span>
        <Button variant="link" onClick={onOpen}>
          edit
        </Button>
        <Button variant="toolbar" onClick={() => clear()} data-testid="what-if-reset">
          Reset: back to the recorded episode
        </Button>
      </div>
      <EditList label="What-if changes" texts={edits.map((e) => describeEdit(e, recorded))} onUndo={(i) => run(edits.filter((_, k) => k !== i))} />
      {edited?.whatIf && <p className="text-[11px] text-violet-900">{edited.whatIf.note}</p>}
      {edited?.whatIf && edited.whatIf.removed.length > 0 && <p className="text-[11px]">Removed: {edited.whatIf.removed.map((r) => r.text).join(', ')}.</p>}
    </div>
  );
}
