/**
 * The one numbering of a τ² simulation's calls and messages, for every panel and for the CLI and the report:
 * a call is named by its index among every tool call of the simulation in replay order (`Tau2CallView.index`,
 * counted from 0, what the DB blame, the action checks, state at step and what-if carry), a message by its
 * index in the simulation's messages (counted from 0). Nothing else adds or drops one.
 */
export const callName = (index: number): string => `call ${index}`;

/** Several calls: "calls 3, 5" (one: "call 3"). */
export const callNames = (indices: readonly number[]): string => (indices.length === 1 ? callName(indices[0]!) : `calls ${indices.join(', ')}`);

export const messageName = (index: number): string => `message #${index}`;
