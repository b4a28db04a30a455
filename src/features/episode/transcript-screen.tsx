import type { ReactNode } from 'react';
import type { TranscriptView } from '../../core/contract';
import { Dialogue } from './dialogue';
import { TaskInstruction } from './task-instruction';

const NO_STEPS: readonly never[] = [];
const noop = (): void => undefined;

/**
 * The episode as recorded, before its replay and verdict exist (no data yet, or still evaluating,
 * or not evaluable): the status in one line, then the user's goal and the dialogue.
 */
export function TranscriptScreen(props: { transcript: TranscriptView; status: ReactNode; instructionOpen: boolean; onToggleInstruction: () => void }) {
  const { transcript, status, instructionOpen, onToggleInstruction } = props;
  const view = { messages: transcript.messages, steps: NO_STEPS, strategy: transcript.strategy };
  return (
    <div
      className="@container flex min-w-0 flex-col gap-2 p-2 text-slate-900 @4xl:h-full @4xl:min-h-0"
      data-testid="episode-transcript"
      data-episode={transcript.index}
    >
      {status}
      <section
        aria-label="Dialogue as recorded"
        className="flex flex-col overflow-hidden rounded-md border border-slate-200 bg-slate-50 @4xl:min-h-0 @4xl:flex-1"
      >
        <TaskInstruction instruction={transcript.instruction} strategy={transcript.strategy} open={instructionOpen} onToggle={onToggleInstruction} />
        <div className="@4xl:min-h-0 @4xl:flex-1">
          <Dialogue view={view} step={-1} mark={null} reveal={null} onSelect={noop} />
        </div>
      </section>
    </div>
  );
}
