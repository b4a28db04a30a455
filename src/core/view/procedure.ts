import type { Domain } from '../model/data/db';
import { TOOLS } from '../model/domains/registry';
import { RESPOND } from '../model/episode/actions';
import type { ExecutedStep } from '../env/replay';

/**
 * Things τ-bench's reward does not look at. The policies ask for an explicit "yes" from the user
 * before each consequential (DB-writing) action; the reward only compares final DB states, so a
 * write done without consent still earns 1. These notes make that visible; they are heuristics
 * over the dialogue, never part of the recomputed reward.
 */
export interface ProcedureNote {
  readonly stepIndex: number;
  readonly kind: 'write-without-consent' | 'return-only-records-request';
  readonly text: string;
}

// An explicit go-ahead in the user's words ("sure" and "correct" alone usually answer other questions).
const YES = /\b(yes|yeah|yep|yup|confirm(ed|s)?|go ahead|proceed|please do|do it|sounds good)\b/i;

export function procedureNotes(domain: Domain, steps: readonly ExecutedStep[]): ProcedureNote[] {
  const notes: ProcedureNote[] = [];
  let consented = false;
  let lastWrite: number | null = null;
  for (const step of steps) {
    if (step.action.name === RESPOND) {
      if (YES.test(step.observation)) consented = true;
      continue;
    }
    const tool = TOOLS[domain].get(step.action.name);
    if (!tool?.writes) continue;
    const failed = step.observation.startsWith('Error');
    if (!consented)
      notes.push({
        stepIndex: step.index,
        kind: 'write-without-consent',
        text: `${step.action.name} ran without an explicit "yes" from the user ${lastWrite === null ? 'before it' : `since the write in step ${lastWrite + 1}`}${failed ? ' (the call failed)' : ''}; τ-bench's reward does not check this.`,
      });
    if (step.action.name === 'return_delivered_order_items' && !failed)
      notes.push({
        stepIndex: step.index,
        kind: 'return-only-records-request',
        text: 'return_delivered_order_items only sets the order to "return requested": no refund is recorded and no email is sent.',
      });
    consented = false;
    lastWrite = step.index;
  }
  return notes;
}
