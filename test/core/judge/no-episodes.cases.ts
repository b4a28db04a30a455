/**
 * "Files with no episodes say so", as a function of the file: the gate (detection-robust.spec.ts) runs it on
 * small lists, the soak (test/soak/detection-robust.spec.ts) on a million `{}`; the same assertions.
 */
import { expect, it } from 'vitest';
import { EvaluationSetupError } from '../../../src/core/judge/detect';
import { InspectSession } from '../../../src/core/session/session';

/** `n` empty objects as one list. */
export const emptyObjects = (n: number): string => `[${Array(n).fill('{}').join(',')}]`;

export function noEpisodesCases(cases: readonly (readonly [name: string, text: string, message: RegExp])[]): void {
  it.each(cases)('%s', (_name, text, message) => {
    let error: unknown;
    try {
      new InspectSession(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EvaluationSetupError);
    expect((error as Error).message).toMatch(message);
  });
}
