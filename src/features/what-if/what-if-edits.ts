import type { EpisodeView, StepEdit } from '../../core/contract';

/** Where a recorded message sits, in steps first: "step 20 (message #40)"; a message of no step by its number alone. */
export function stepOfMessage(recorded: Pick<EpisodeView, 'messages'>, messageIndex: number): string {
  const m = recorded.messages.find((x) => x.originalIndex === messageIndex);
  const step = m?.stepIndex ?? m?.observationOf ?? null;
  return step === null ? `message #${messageIndex}` : `step ${step + 1} (message #${messageIndex})`;
}

/** One what-if change in words, in steps (the message number secondary). */
export function describeEdit(e: StepEdit, recorded: Pick<EpisodeView, 'messages'>): string {
  const at = stepOfMessage(recorded, e.messageIndex);
  if (e.insert) return `insert ${e.name ?? '?'} before ${at}`;
  if (e.remove) return `remove ${at}`;
  if (e.content !== undefined) return `new text for ${at}`;
  return `new arguments for ${at}${e.name ? ` (${e.name})` : ''}`;
}
