/**
 * "Finds an output near the end of a big message", as a function of its size: the gate (output-match.spec.ts)
 * searches ~2 MB, the soak (test/soak/output-match.spec.ts) ~20 MB; the same assertions.
 */
import { expect, it } from 'vitest';
import { OutputHaystack } from '../../../src/core/env/output-match';

export function bigMessageCase(chars: number): void {
  it(`finds an output near the end of a ~${chars / 1_000_000} MB message`, () => {
    const unit = 'Ωραία, the flight to Zürich is ready, ΟΔΥΣΣΕΥΣ said. '; // non-ASCII and commas
    const tail = 'Your confirmation is ABC,123 — ΟΔΥΣΣΕΥΣ, İstanbul.';
    const content = unit.repeat(Math.ceil(chars / unit.length)) + tail;
    const hay = new OutputHaystack(content);
    const span = hay.find('abc123 — οδυσσευς i̇stanbul');
    expect(span).toEqual({ start: content.length - tail.length + 21, end: content.length - 1 });
    const said = unit.indexOf('ΟΔΥΣΣΕΥΣ said');
    expect(hay.find('ΟΔΥΣΣΕΥΣ SAID')).toEqual({ start: said, end: said + 13 });
    expect(hay.find('not there at all')).toBeNull();
  });
}
