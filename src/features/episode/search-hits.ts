import type { MessageView, StepView } from '../../core/contract';
import { queryHits } from '../../ui/text';
import type { Mark } from './dialogue';

/**
 * Every place the search text appears in the dialogue as shown (user, agent and tool text; not the
 * system prompt, which the search leaves out), in message order, as marks the dialogue highlights.
 * A tool-calling agent's respond shows the respond text, so its hits are marked there.
 */
export function searchMarks(messages: readonly MessageView[], steps: readonly StepView[], query: string, strategy: string): Mark[] {
  const q = query.trim();
  if (q === '') return [];
  const out: Mark[] = [];
  const label = `search hit "${q}"`;
  const find = (text: string, messageIndex: number, target: Mark['target']): void => {
    for (const span of queryHits(text, q)) out.push({ messageIndex, target, span, label });
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    const step = m.stepIndex === null ? null : (steps[m.stepIndex] ?? null);
    if (step?.isRespond && strategy === 'tool-calling') find(step.respondText ?? '', m.index, 'respond');
    else if (m.content) find(m.content, m.index, 'content');
  }
  return out;
}
