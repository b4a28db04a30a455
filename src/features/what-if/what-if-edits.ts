import { stepOfMessage, type EpisodeView, type StepEdit } from '../../core/contract';

/** Where a recorded message sits, in steps first (core's, as the report words it too). */
export { stepOfMessage };

/** One what-if change in words, in steps (the message number secondary). */
export function describeEdit(e: StepEdit, recorded: Pick<EpisodeView, 'messages'>): string {
  const at = stepOfMessage(recorded, e.messageIndex);
  if (e.insert) return `insert ${e.name ?? '?'} before ${at}`;
  if (e.remove) return `remove ${at}`;
  if (e.content !== undefined) return `new text for ${at}`;
  return `new arguments for ${at}${e.name ? ` (${e.name})` : ''}`;
}
