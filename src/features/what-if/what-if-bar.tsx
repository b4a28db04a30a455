import { useEffect, useState } from 'react';
import type { EpisodeView } from '../../core/contract';
import type { StepEdit } from '../../core/contract';
import { Button } from '../../ui/button';
import { useApp } from '../../ui/store-context';

/**
 * What-if replay: change the arguments of the selected step (or drop it) and see τ-bench's
 * verdict on the changed episode. Later observations in the file stay as recorded.
 */
export function WhatIfBar(props: { recorded: EpisodeView; step: number }) {
  const { recorded, step } = props;
  const whatIf = useApp((s) => s.whatIf);
  const run = useApp((s) => s.runWhatIf);
  const clear = useApp((s) => s.clearWhatIf);
  const shown = whatIf?.view ?? recorded;
  const current = shown.steps[step];
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  useEffect(() => setText(current?.kwargs ?? ''), [current?.kwargs, current?.messageIndex]);

  const edits = (extra: StepEdit): readonly StepEdit[] => [...(whatIf?.edits ?? []).filter((e) => e.messageIndex !== extra.messageIndex), extra];
  const editable = current !== undefined && !current.isRespond;
  const before = recorded.verdict.reward;

  return (
    <div className="border-b border-violet-200 bg-violet-50/60 px-3 py-1.5 text-xs text-violet-950" data-testid="what-if">
      {whatIf && (
        <div role="status" className="mb-1 flex flex-wrap items-center gap-2">
          <strong>What-if replay</strong>
          <span>
            {whatIf.edits.length} change{whatIf.edits.length === 1 ? '' : 's'} ·{' '}
            {whatIf.error ? (
              <span className="text-red-800">{whatIf.error}</span>
            ) : whatIf.view ? (
              <>
                reward <strong data-testid="what-if-reward">{whatIf.view.verdict.reward.toFixed(1)}</strong> (as recorded: {before.toFixed(1)})
              </>
            ) : (
              'replaying…'
            )}
          </span>
          <Button variant="toolbar" onClick={() => clear()}>
            Back to the recorded episode
          </Button>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="toolbar" aria-expanded={open} disabled={!editable} onClick={() => setOpen(!open)} title={editable ? '' : 'Select a tool step to change it'}>
          {open ? 'Hide what-if' : `What if step ${step + 1} were different?`}
        </Button>
        {!editable && <span className="text-slate-600">Select a tool call to try other arguments.</span>}
      </div>
      {open && editable && current && (
        <div className="mt-1.5 space-y-1">
          <label className="block font-medium" htmlFor="what-if-args">
            Arguments of <code className="font-mono">{current.action}</code> (JSON; ints and floats as you type them)
          </label>
          <textarea
            id="what-if-args"
            className="h-32 w-full rounded border border-violet-300 bg-white p-1.5 font-mono text-xs text-slate-900"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <Button variant="toolbar" onClick={() => run(edits({ messageIndex: current.messageIndex, kwargsJson: text }))}>
              Replay with these arguments
            </Button>
            <Button variant="toolbar" onClick={() => run(edits({ messageIndex: current.messageIndex, remove: true }))}>
              Replay without this step
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
