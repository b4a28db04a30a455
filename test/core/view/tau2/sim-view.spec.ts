/** The τ² simulation screen's data against τ²'s own records (../shared/tau2/expected). */
import { describe, expect, it } from 'vitest';
import { communicateSpan } from '../../../../src/core/view/tau2/sim-view';
import { describeTau2 } from '../../../support/shared';
import { openTau2, tau2Expected } from '../../../support/tau2';

interface ExpectedSim {
  db_match: boolean | null;
  db_hash: Record<string, string | null> | null;
  env_assertions: { met: boolean }[] | null;
  action_checks: { action_match: boolean }[] | null;
  tool_calls: unknown[];
}

describeTau2('τ² simulation views', () => {
  it.each(['sierra-research__gym-gpt-4.1-airline.json', 'sierra-research__gym-gpt-4.1-telecom-solo.json'])(
    '%s: DB diff only where the hashes differ, blamed on calls; env assertions with actual values; actions lined up',
    async (file) => {
      const session = await openTau2(file);
      const expected = tau2Expected(file).simulations as unknown as ExpectedSim[];
      let diffs = 0;
      let blamed = 0;
      let asserted = 0;
      for (let i = 0; i < session.size; i++) {
        const v = session.simView(i);
        const x = expected[i]!;
        expect(v.messages.flatMap((m) => m.calls)).toHaveLength(x.tool_calls.length);
        if (x.db_match === false) {
          expect(v.db?.diffError ?? null, `simulation ${i}`).toBeNull();
          expect(v.db!.diff.length, `simulation ${i}`).toBeGreaterThan(0);
          diffs++;
          for (const d of v.db!.diff) {
            expect(d.predicted).not.toBe(d.gold);
            // The fields that differ inside the record, each with both sides.
            expect(d.fields.length).toBeGreaterThan(0);
            for (const f of d.fields) expect(f.predicted).not.toBe(f.gold);
            if (d.blame.length > 0) blamed++;
            for (const b of d.blame) expect(v.messages.some((m) => m.calls.some((c) => c.index === b && c.mutating))).toBe(true);
          }
        } else expect(v.db?.diff ?? [], `simulation ${i}`).toEqual([]);
        (v.envAssertions ?? []).forEach((a, k) => {
          expect(a.met).toBe(x.env_assertions![k]!.met);
          // A boolean assertion is met exactly when the value it returns is the expected one.
          expect(a.actual === a.expected).toBe(a.met);
          asserted++;
        });
        (v.actions ?? []).forEach((a, k) => {
          expect(a.match).toBe(x.action_checks![k]!.action_match);
          expect(a.matchedCall !== null).toBe(a.match);
        });
      }
      if (file.includes('airline')) {
        expect(diffs).toBeGreaterThan(0);
        expect(blamed).toBeGreaterThan(0);
      } else expect(asserted).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('where a communicate info is found', () => {
  it('maps τ²’s lower-cased, comma-free match back onto the message', () => {
    const text = 'Your refund is $1,234.50, Sir.';
    const span = communicateSpan(text, '1234.50')!;
    expect(text.slice(span.start, span.end)).toBe('1,234.50');
    expect(communicateSpan('NO MATCH HERE', 'match here')).toEqual({ start: 3, end: 13 });
    expect(communicateSpan('nothing', '42')).toBeNull();
  });
});
