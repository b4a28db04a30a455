import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../src/core/contract';
import { describeEdit, stepOfMessage } from '../../src/features/what-if/what-if-edits';

/** Messages 0..5: system, user, agent step 0, its tool result, agent step 1, the user's reply to it. */
const ROLES: readonly [number | null, number | null][] = [
  [null, null],
  [null, null],
  [0, null],
  [null, 0],
  [1, null],
  [null, 1],
];
const messages = ROLES.map(
  ([stepIndex, observationOf], i) =>
    ({ index: i, role: 'x', content: '', toolCalls: [], stepIndex, observationOf, originalIndex: i, whatIf: null }) as unknown as MessageView,
);

describe('what-if changes are told in steps, the message number second', () => {
  it('names the step of a call, of its observation, or the message alone when it belongs to no step', () => {
    expect(stepOfMessage({ messages }, 4)).toBe('step 2 (message #4)');
    expect(stepOfMessage({ messages }, 3)).toBe('step 1 (message #3)');
    expect(stepOfMessage({ messages }, 1)).toBe('message #1');
  });

  it('says each kind of change in those words', () => {
    expect(describeEdit({ messageIndex: 4, kwargsJson: '{}', name: 'modify_pending_order_address' }, { messages })).toBe(
      'new arguments for step 2 (message #4) (modify_pending_order_address)',
    );
    expect(describeEdit({ messageIndex: 4, remove: true }, { messages })).toBe('remove step 2 (message #4)');
    expect(describeEdit({ messageIndex: 2, content: 'hi' }, { messages })).toBe('new text for step 1 (message #2)');
    expect(describeEdit({ messageIndex: 4, insert: true, name: 'get_user_details', kwargsJson: '{}' }, { messages })).toBe(
      'insert get_user_details before step 2 (message #4)',
    );
  });
});
